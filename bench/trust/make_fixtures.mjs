// Writes the benchmark fixtures in bench/trust/data (committed; rerun only to change them):
//   tools_list_50k.json   a tools/list result of ~50 KB (realistic tools: titles, descriptions with
//                         some non-ASCII, schemas with nested objects and enums, annotations)
//   tools_100.json        a tools/list result of 100 such tools
//   message_small.json    a tools/call request (~150 B)
//   manifest_100.json     tools_100 signed by `mcp-trust sign` with the key in manifest_100.seed
//   manifest_100.pub      its public key (hex)
// Usage: node make_fixtures.mjs <path to mcp-trust>
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const out = (name, text) => writeFileSync(path.join(here, 'data', name), text);

let state = 20250615;
const rand = () => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32);
const pick = (a) => a[Math.floor(rand() * a.length)];
const words = ['search', 'file', 'user', 'message', 'account', 'report', 'calendar', 'event', 'invoice', 'ticket',
  'résumé', 'données', 'größe', 'naïve', 'project', 'branch', 'commit', 'issue', 'label', 'repository', 'café'];
const sentence = (n) => Array.from({ length: n }, () => pick(words)).join(' ');

function tool(i) {
  const props = {};
  const nprops = 2 + Math.floor(rand() * 5);
  for (let p = 0; p < nprops; p++) {
    const kind = pick(['string', 'integer', 'boolean', 'enum', 'object', 'array']);
    const name = `${pick(words).replace(/[^a-z]/g, '')}_${p}`;
    const description = `The ${sentence(4 + Math.floor(rand() * 8))}.`;
    if (kind === 'enum') props[name] = { type: 'string', enum: ['asc', 'desc', 'relevance'], description };
    else if (kind === 'object') props[name] = { type: 'object', description, properties: { id: { type: 'string' }, limit: { type: 'integer', minimum: 1, maximum: 100 } }, required: ['id'] };
    else if (kind === 'array') props[name] = { type: 'array', items: { type: 'string', maxLength: 256 }, description };
    else props[name] = { type: kind, description };
  }
  const t = {
    name: `${pick(words).replace(/[^a-z]/g, '')}_${i}`,
    title: `${sentence(2)} ${i}`,
    description: `${sentence(20 + Math.floor(rand() * 40))}. Returns at most 100 results; use the cursor to page.`,
    inputSchema: { type: 'object', properties: props, required: Object.keys(props).slice(0, 1) },
    annotations: { readOnlyHint: rand() < 0.5, destructiveHint: rand() < 0.2, idempotentHint: rand() < 0.5, openWorldHint: rand() < 0.5 },
  };
  if (rand() < 0.4) t.outputSchema = { type: 'object', properties: { items: { type: 'array', items: { type: 'object' } }, total: { type: 'integer' } } };
  return t;
}

const tools50k = [];
while (JSON.stringify({ tools: tools50k }).length < 50_000) tools50k.push(tool(tools50k.length));
out('tools_list_50k.json', JSON.stringify({ tools: tools50k }));
const tools100 = Array.from({ length: 100 }, (_, i) => tool(i));
out('tools_100.json', JSON.stringify({ tools: tools100 }));
out('message_small.json', JSON.stringify({ jsonrpc: '2.0', id: 42, method: 'tools/call',
  params: { name: 'search_files', arguments: { query: 'café menu', limit: 10, recursive: true } } }));

const bin = process.argv[2];
if (bin) {
  const { peer } = await import('../../tests/interop/trust/common.mjs');
  const { ed25519 } = await peer('@noble/curves/ed25519.js');
  const seed = 'a5c2a3b0d1e2f30415263748596a7b8c9dadbecfd0e1f2031425364758697a8b';  // benchmark key, not a secret
  out('manifest_100.seed', `${seed}\n`);
  out('manifest_100.pub', `${Buffer.from(ed25519.getPublicKey(Buffer.from(seed, 'hex'))).toString('hex')}\n`);
  out('manifest_100.json', execFileSync(bin, ['sign', '--key', path.join(here, 'data', 'manifest_100.seed'),
    '--issuer', 'bench-server', '--now', '1750000000000', '--expires-in', '36500d', path.join(here, 'data', 'tools_100.json')]));
}
