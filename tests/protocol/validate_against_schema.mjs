// Schema-drift test: runs protocol_samples and validates every line it prints against the MCP
// 2025-11-25 JSON Schema with ajv (draft 2020-12).
//
//   node validate_against_schema.mjs <protocol_samples binary> <schema.json>
//
// Lines are {"def": "<$defs name or path below $defs>", "value": <JSON>} or
// {"check": "methods", "value": [<method names>]}. The run fails when
//  - the binary fails (it checks its own round trips) or prints nothing to validate;
//  - a value does not validate against its definition, or names a definition the schema lacks;
//  - a definition is exercised by no sample and is not on ALLOWED_UNEXERCISED below. A definition is
//    exercised when a sample names it, when the walk below reaches it from a sample (through $ref,
//    properties, additionalProperties, items, allOf, and the anyOf/oneOf branches the value
//    validates against), or, for a union of references (ClientRequest, EnumSchema, ...), when a
//    value reached at another definition validates against it;
//  - a property of any object schema the walk reaches appears in none of the values reached there,
//    and is not on ALLOWED_MISSING_PROPERTIES: a field added to the schema and not to the SDK is
//    caught here;
//  - an allow-list entry is no longer needed (the lists only ever shrink);
//  - the SDK's method names differ from the schema's "method" constants.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// What the SDK does not produce, each with its reason. Keys are definition names.
const TASKS = 'tasks (experimental in 2025-11-25) are not implemented: the SDK neither sends nor serves tasks/*';
const ALLOWED_UNEXERCISED = {
  CancelTaskRequest: TASKS,
  CancelTaskResult: TASKS,
  CreateTaskResult: TASKS,
  GetTaskPayloadRequest: TASKS,
  GetTaskPayloadResult: TASKS,
  GetTaskRequest: TASKS,
  GetTaskResult: TASKS,
  ListTasksRequest: TASKS,
  ListTasksResult: TASKS,
  RelatedTaskMetadata: TASKS,
  Task: TASKS,
  TaskAugmentedRequestParams: TASKS,
  TaskMetadata: TASKS,
  TaskStatus: TASKS,
  TaskStatusNotification: TASKS,
  TaskStatusNotificationParams: TASKS,
};
// Keys are "<definition>[/<path below it>].<property>".
const ALLOWED_MISSING_PROPERTIES = {
  'CallToolRequestParams.task': TASKS,
  'CreateMessageRequestParams.task': TASKS,
  'ElicitRequestFormParams.task': TASKS,
  'ElicitRequestURLParams.task': TASKS,
  'ClientCapabilities.tasks': TASKS,
  'ServerCapabilities.tasks': TASKS,
  // SEP-2093 moves an embedded resource's annotations into the resource (resource.annotations, which
  // the samples carry); the old place is still read (tests/protocol/content_test.cpp), never written.
  'EmbeddedResource.annotations': 'SEP-2093: written as resource.annotations',
};

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
// ajv-formats is installed by scripts/setup.sh; without it "format" could not be checked.
require('ajv-formats').default(ajv);
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
let validated = 0;
let methods = null;

// Schema nodes are addressed by their JSON pointer below the root ("/$defs/Tool/properties/name").
const esc = (s) => String(s).replaceAll('~', '~0').replaceAll('/', '~1');
function nodeAt(pointer) {
  let node = schema;
  for (const raw of pointer.split('/').slice(1)) {
    const part = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (node === undefined || node === null || typeof node !== 'object') return undefined;
    node = node[part];
  }
  return node;
}
function validatorFor(pointer) {
  if (!validators.has(pointer)) {
    validators.set(pointer, ajv.compile({ $ref: `mcp#${pointer.split('/').map(encodeURIComponent).join('/')}` }));
  }
  return validators.get(pointer);
}
// "Tool/properties/annotations" for "/$defs/Tool/properties/annotations": how allow-lists and
// messages name a place.
const where = (pointer) => pointer.replace(/^\/\$defs\//, '');
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

// --- read and validate the samples -----------------------------------------------------------
const samples = [];  // [pointer, value]
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
  const pointer = '/$defs/' + entry.def.split('/').map(esc).join('/');
  if (nodeAt(pointer) === undefined) {
    failures.push(`line ${i + 1}: the schema has no definition "${entry.def}"`);
    return;
  }
  const validate = validatorFor(pointer);
  if (validate(entry.value)) {
    validated++;
    samples.push([pointer, entry.value]);
  } else {
    failures.push(`line ${i + 1}: ${entry.def} does not validate:\n` +
      ajv.errorsText(validate.errors, { separator: '\n    ', dataVar: entry.def }) + `\n    value: ${line}`);
  }
});

// --- walk every sample through the schema ----------------------------------------------------
const exercised = new Set();  // definition names
const seenKeys = new Map();   // object-schema pointer -> Set of property names seen there
const reached = new Set();    // every value the walk reached at a definition
const visiting = [];          // (pointer, value) pairs on the current path: a $ref cycle on the same value ends here
function visit(pointer, value) {
  if (visiting.some(([p, v]) => p === pointer && v === value)) return;
  const node = nodeAt(pointer);
  if (!isObject(node)) return;
  const def = /^\/\$defs\/([^/]+)$/.exec(pointer);
  if (def) {
    exercised.add(def[1]);
    reached.add(value);
  }
  visiting.push([pointer, value]);
  try {
    if (typeof node.$ref === 'string') visit(node.$ref.replace(/^#/, ''), value);
    (node.allOf ?? []).forEach((_, i) => visit(`${pointer}/allOf/${i}`, value));
    for (const k of ['anyOf', 'oneOf']) {
      (node[k] ?? []).forEach((_, i) => {
        if (validatorFor(`${pointer}/${k}/${i}`)(value)) visit(`${pointer}/${k}/${i}`, value);
      });
    }
    if (isObject(value) && (node.properties || node.additionalProperties)) {
      if (node.properties) {
        if (!seenKeys.has(pointer)) seenKeys.set(pointer, new Set());
        for (const key of Object.keys(value)) if (key in node.properties) seenKeys.get(pointer).add(key);
      }
      for (const [key, sub] of Object.entries(value)) {
        if (node.properties && key in node.properties) visit(`${pointer}/properties/${esc(key)}`, sub);
        else if (isObject(node.additionalProperties)) visit(`${pointer}/additionalProperties`, sub);
      }
    }
    if (Array.isArray(value) && isObject(node.items)) value.forEach((v) => visit(`${pointer}/items`, v));
  } finally {
    visiting.pop();
  }
}
for (const [pointer, value] of samples) visit(pointer, value);

// Unions of references (ClientRequest, ServerResult, JSONRPCMessage, EnumSchema, ...) are exercised
// when a value the walk reached validates against them as a whole.
const isUnionOfRefs = (n) => Array.isArray(n.anyOf) && n.anyOf.every((b) => typeof b.$ref === 'string') && !n.properties;
for (const [name, node] of Object.entries(schema.$defs)) {
  if (exercised.has(name) || !isUnionOfRefs(node)) continue;
  const v = validatorFor(`/$defs/${esc(name)}`);
  for (const value of reached) {
    if (v(value)) {
      exercised.add(name);
      break;
    }
  }
}

// --- coverage --------------------------------------------------------------------------------
const usedPropertyAllowances = new Set();
for (const [pointer, keys] of seenKeys) {
  for (const key of Object.keys(nodeAt(pointer).properties)) {
    if (keys.has(key)) continue;
    const allowId = `${where(pointer)}.${key}`;
    if (allowId in ALLOWED_MISSING_PROPERTIES) {
      usedPropertyAllowances.add(allowId);
      continue;
    }
    failures.push(`coverage: no value reached at ${where(pointer)} has "${key}" (${allowId}): a schema field the SDK may not produce`);
  }
}
for (const id of Object.keys(ALLOWED_MISSING_PROPERTIES)) {
  if (!usedPropertyAllowances.has(id)) {
    failures.push(`allow-list: "${id}" is now produced (or no longer in the schema): remove it from ALLOWED_MISSING_PROPERTIES`);
  }
}
const unexercised = Object.keys(schema.$defs).filter((d) => !exercised.has(d));
for (const d of unexercised) {
  if (!(d in ALLOWED_UNEXERCISED)) failures.push(`coverage: no sample exercises the definition "${d}"`);
}
for (const d of Object.keys(ALLOWED_UNEXERCISED)) {
  if (exercised.has(d)) failures.push(`allow-list: "${d}" is now exercised: remove it from ALLOWED_UNEXERCISED`);
  else if (!(d in schema.$defs)) failures.push(`allow-list: "${d}" is not a definition of this schema`);
}

// --- method names: the schema's "method" constants against the SDK's list --------------------
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

const total = Object.keys(schema.$defs).length;
console.log(`validated ${validated} values; ${total - unexercised.length}/${total} definitions exercised, ` +
  `${seenKeys.size} object schemas reached; ${schemaMethods.size} method names checked`);
if (unexercised.length) console.log(`not exercised, allowed (${unexercised.length}): ${unexercised.join(', ')}`);
if (failures.length > 0) {
  console.error(`\n${failures.length} failure(s):\n- ` + failures.join('\n- '));
  process.exit(1);
}
console.log('OK');
