// Helpers shared by the trust interop scripts: running mcp-trust, a seeded PRNG, and the reference
// implementation's canonical form (sorted keys + JSON.stringify), written here from its description
// in RajSidwadkar/mcp-signed-manifests src/canonical.ts.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// The npm peers live in .deps/node (scripts/setup.sh); ctest passes MCP_NODE_DIR. They are ESM-only
// packages, so they are imported by file URL rather than through NODE_PATH.
const here = path.dirname(fileURLToPath(import.meta.url));
export const nodeDir = process.env.MCP_NODE_DIR || path.resolve(here, '../../../.deps/node');
export async function peer(file) {
  return import(pathToFileURL(path.join(nodeDir, 'node_modules', file)).href);
}

// Runs `bin args...` with `input` on stdin; returns {code, out (Buffer), err (string)}.
export function run(bin, args, input = '') {
  const r = spawnSync(bin, args, { input, maxBuffer: 1 << 28 });
  if (r.error) throw r.error;
  return { code: r.status ?? -1, signal: r.signal, out: r.stdout, err: r.stderr.toString('utf8') };
}

// mulberry32: small, fast, deterministic; the corpus is the same on every run.
export function prng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n) => Math.floor(next() * n),
    pick: (arr) => arr[Math.floor(next() * arr.length)],
    chance: (p) => next() < p,
  };
}

// The reference's canonical JSON: object keys sorted with Array.prototype.sort (UTF-16 code units)
// at every level, then JSON.stringify. Note that a JavaScript object lists array-index keys
// ("0", "9", "10") first in numeric order whatever the insertion order, so on such keys this is
// not RFC 8785; see docs/wire/signed-manifest.md.
export function referenceCanonical(value) {
  const sortDeep = (v) => {
    if (Array.isArray(v)) return v.map(sortDeep);
    if (v !== null && typeof v === 'object') {
      const out = {};
      for (const k of Object.keys(v).sort()) out[k] = sortDeep(v[k]);
      return out;
    }
    return v;
  };
  return JSON.stringify(sortDeep(value));
}

export const hex = (bytes) => Buffer.from(bytes).toString('hex');

let failures = 0;
export function check(ok, what, detail = '') {
  if (ok) {
    console.log(`ok   ${what}`);
  } else {
    failures++;
    console.log(`FAIL ${what}${detail ? `\n     ${detail}` : ''}`);
  }
}
export function finish() {
  console.log(failures === 0 ? 'all checks passed' : `${failures} check(s) failed`);
  process.exit(failures === 0 ? 0 : 1);
}
