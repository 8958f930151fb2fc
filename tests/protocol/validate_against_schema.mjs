// Schema-drift test: runs protocol_samples and validates every line it prints against the MCP
// 2025-11-25 JSON Schema with ajv (draft 2020-12).
//
//   node validate_against_schema.mjs <protocol_samples binary> <schema.json>
//
// Lines are {"def": "<$defs name or path below $defs>", "value": <JSON>} or
// {"check": "methods", "value": [<method names>]}. The run fails when
//  - the binary fails (it checks its own round trips) or prints nothing to validate;
//  - a value does not validate against its definition, or names a definition the schema lacks;
//  - a property a sampled definition declares (recursively through inline object schemas) appears
//    in none of its samples: a field added to the schema and not to the SDK is caught here;
//  - the SDK's method names differ from the schema's "method" constants.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const [binary, schemaPath] = process.argv.slice(2);
if (!binary || !schemaPath) {
  console.error('usage: validate_against_schema.mjs <protocol_samples> <schema.json>');
  process.exit(2);
}

// ajv lives in the project's node deps, not next to this script.
const here = path.dirname(fileURLToPath(import.meta.url));
const nodeDir = process.env.MCP_NODE_DIR ?? path.resolve(here, '../../.deps/node');
const require = createRequire(path.join(nodeDir, 'package.json'));
const Ajv2020 = require('ajv/dist/2020.js').default;

const schema = JSON.parse(readFileSync(schemaPath, 'utf8'));
// Strict, except that the schema's `"type": ["string", "integer"]` unions are legitimate.
const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
try {
  require('ajv-formats').default(ajv);
} catch {
  // Without ajv-formats, formats cannot be checked; accept them rather than fail to compile.
  console.warn('warning: ajv-formats not found; "format" keywords are not checked');
  for (const f of ['uri', 'uri-template', 'byte', 'date', 'date-time', 'email']) ajv.addFormat(f, true);
}
ajv.addSchema(schema, 'mcp');

let output;
try {
  output = execFileSync(binary, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'inherit'] });
} catch (e) {
  console.error(`FAIL: ${binary}: ${e.status === null ? e.message : `exited with status ${e.status}`}`);
  process.exit(1);
}

const failures = [];
const validators = new Map();
const samplesByDef = new Map();
let validated = 0;
let methods = null;

function schemaAt(defPath) {
  let node = schema.$defs;
  for (const part of defPath.split('/')) {
    if (node === undefined || node === null || typeof node !== 'object') return undefined;
    node = node[part];
  }
  return node;
}

function validatorFor(def) {
  if (!validators.has(def)) {
    const pointer = def.split('/').map(encodeURIComponent).join('/');
    validators.set(def, ajv.compile({ $ref: `mcp#/$defs/${pointer}` }));
  }
  return validators.get(def);
}

const lines = output.split('\n').filter((l) => l.trim() !== '');
lines.forEach((line, i) => {
  let entry;
  try {
    entry = JSON.parse(line);
  } catch (e) {
    failures.push(`line ${i + 1}: not JSON (${e.message}): ${line}`);
    return;
  }
  if (entry.check === 'methods') {
    methods = entry.value;
    return;
  }
  if (typeof entry.def !== 'string' || !('value' in entry)) {
    failures.push(`line ${i + 1}: expected {"def","value"}: ${line}`);
    return;
  }
  if (schemaAt(entry.def) === undefined) {
    failures.push(`line ${i + 1}: the schema has no definition "${entry.def}"`);
    return;
  }
  const validate = validatorFor(entry.def);
  if (validate(entry.value)) {
    validated++;
    if (!samplesByDef.has(entry.def)) samplesByDef.set(entry.def, []);
    samplesByDef.get(entry.def).push(entry.value);
  } else {
    failures.push(`line ${i + 1}: ${entry.def} does not validate:\n` +
      ajv.errorsText(validate.errors, { separator: '\n    ', dataVar: entry.def }) + `\n    value: ${line}`);
  }
});

// Every declared property shows up in some sample. Recurses into inline object schemas; $ref'd
// ones are covered by their own definition's samples, unions (anyOf) by their members'.
function checkCoverage(node, values, where) {
  if (!node || typeof node !== 'object' || !node.properties) return;
  for (const [key, sub] of Object.entries(node.properties)) {
    const present = values.filter((v) => v && typeof v === 'object' && !Array.isArray(v) && key in v);
    if (present.length === 0) {
      failures.push(`coverage: no sample of ${where} has "${key}" (a schema field the SDK may not produce)`);
      continue;
    }
    if (!sub.$ref) checkCoverage(sub, present.map((v) => v[key]), `${where}.${key}`);
  }
}
for (const [def, values] of samplesByDef) checkCoverage(schemaAt(def), values, def);

// Method names: the schema's "method" constants against the SDK's list.
const schemaMethods = new Set();
(function collect(node) {
  if (Array.isArray(node)) return node.forEach(collect);
  if (!node || typeof node !== 'object') return;
  const m = node.properties?.method?.const;
  if (typeof m === 'string') schemaMethods.add(m);
  Object.values(node).forEach(collect);
})(schema.$defs);
if (methods === null) {
  failures.push('methods: protocol_samples printed no {"check":"methods"} line');
} else {
  const ours = new Set(methods);
  for (const m of schemaMethods) if (!ours.has(m)) failures.push(`methods: "${m}" is in the schema but not in methods.hpp`);
  for (const m of ours) if (!schemaMethods.has(m)) failures.push(`methods: "${m}" is in methods.hpp but not in the schema`);
}

if (validated === 0) failures.push('no line was validated');

const unsampled = Object.keys(schema.$defs).filter((d) => !samplesByDef.has(d));
console.log(`validated ${validated} values against ${samplesByDef.size} definitions; ` +
  `${schemaMethods.size} method names checked`);
console.log(`definitions without samples (${unsampled.length}): ${unsampled.join(', ')}`);
if (failures.length > 0) {
  console.error(`\n${failures.length} failure(s):\n- ` + failures.join('\n- '));
  process.exit(1);
}
console.log('OK');
