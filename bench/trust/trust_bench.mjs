// The node reference for bench/trust: the same fixtures through what the proposal's reference
// implementation uses (@noble/curves Ed25519, sorted-keys JSON.stringify), plus the `canonicalize`
// package (RFC 8785) and node:crypto (OpenSSL) for scale. Prints one line per measurement.
//
// Usage: node trust_bench.mjs [seconds per measurement = 1]
import { createHash, createPrivateKey, createPublicKey, sign as nodeSign, verify as nodeVerify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { peer, referenceCanonical } from '../../tests/interop/trust/common.mjs';

const { ed25519 } = await peer('@noble/curves/ed25519.js');
const canonicalize = (await peer('canonicalize/lib/canonicalize.js')).default;

const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = (name) => readFileSync(path.join(here, 'data', name), 'utf8');
const seconds = Number(process.argv[2] ?? 1);

// Runs fn repeatedly for `seconds` after a warm-up; prints CPU time per call (process user +
// system time, as Google Benchmark's "CPU" column measures the C++ side) and wall time beside it,
// and, given bytes, MB/s from the CPU time (MB = 10^6 bytes; Google Benchmark's "M/s" is 2^20
// bytes, so RESULTS.md quotes times). The garbage collector's helper threads count as CPU here,
// as they should: they are work the reference does per call.
function measure(name, fn, bytes = 0) {
  const deadline = (ms) => { const end = performance.now() + ms; let n = 0; while (performance.now() < end) { fn(); n++; } return n; };
  deadline(200);
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  const n = deadline(seconds * 1000);
  const wallUs = ((performance.now() - start) * 1000) / n;
  const cpu = process.cpuUsage(cpu0);
  const cpuUs = (cpu.user + cpu.system) / n;
  const rate = bytes ? `  ${(bytes / cpuUs).toFixed(1)} MB/s` : `  ${(1e6 / cpuUs).toFixed(0)} ops/s`;
  console.log(`${name.padEnd(44)} cpu ${cpuUs.toFixed(2).padStart(10)} us  wall ${wallUs.toFixed(2).padStart(10)} us${rate}`);
}

const tools50k = fixture('tools_list_50k.json');
const small = fixture('message_small.json');
const tools50kObj = JSON.parse(tools50k);
const smallObj = JSON.parse(small);

measure('canonicalize(JSON.parse(text)) 50k', () => canonicalize(JSON.parse(tools50k)), Buffer.byteLength(tools50k));
measure('canonicalize(JSON.parse(text)) small', () => canonicalize(JSON.parse(small)), Buffer.byteLength(small));
measure('sorted-keys stringify(JSON.parse) 50k', () => referenceCanonical(JSON.parse(tools50k)), Buffer.byteLength(tools50k));
measure('sorted-keys stringify(JSON.parse) small', () => referenceCanonical(JSON.parse(small)), Buffer.byteLength(small));
measure('canonicalize(object) 50k', () => canonicalize(tools50kObj), Buffer.byteLength(tools50k));
measure('canonicalize(object) small', () => canonicalize(smallObj), Buffer.byteLength(small));
measure('sorted-keys stringify(object) 50k', () => referenceCanonical(tools50kObj), Buffer.byteLength(tools50k));
measure('sorted-keys stringify(object) small', () => referenceCanonical(smallObj), Buffer.byteLength(small));
measure('JSON.parse 50k', () => JSON.parse(tools50k), Buffer.byteLength(tools50k));
measure('node:crypto sha256 50k', () => createHash('sha256').update(tools50k).digest(), Buffer.byteLength(tools50k));

const msg = Buffer.alloc(64, 'm');
const secret = ed25519.utils.randomSecretKey();
const pub = ed25519.getPublicKey(secret);
const sig = ed25519.sign(msg, secret);
measure('noble ed25519 sign (64 B)', () => ed25519.sign(msg, secret));
measure('noble ed25519 verify (64 B)', () => ed25519.verify(sig, msg, pub));

const keyObj = createPrivateKey({ key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.from(secret)]), format: 'der', type: 'pkcs8' });
const pubObj = createPublicKey(keyObj);
const osig = nodeSign(null, msg, keyObj);
measure('node:crypto ed25519 sign (64 B)', () => nodeSign(null, msg, keyObj));
measure('node:crypto ed25519 verify (64 B)', () => nodeVerify(null, msg, pubObj, osig));

// The full job as the reference does it (ManifestVerifier.verify + expiry), on the 100-tool manifest.
const signedText = fixture('manifest_100.json');
const pub100 = Buffer.from(fixture('manifest_100.pub').trim(), 'hex');
const verifyReference = (text) => {
  const signed = JSON.parse(text);
  if (!signed.signature.startsWith('ed25519:')) return false;
  const s = Buffer.from(signed.signature.slice(8), 'hex');
  const ok = ed25519.verify(s, Buffer.from(referenceCanonical(signed.manifest)), pub100);
  return ok && signed.manifest.expiresAt >= 1750000000000;
};
if (!verifyReference(signedText)) throw new Error('manifest_100.json does not verify in node');
measure('reference verify, 100-tool manifest', () => verifyReference(signedText), Buffer.byteLength(signedText));
const canonical100 = Buffer.from(referenceCanonical(JSON.parse(signedText).manifest));
const sig100 = Buffer.from(JSON.parse(signedText).signature.slice(8), 'hex');
measure('noble verify alone, 100-tool canonical bytes', () => ed25519.verify(sig100, canonical100, pub100), canonical100.length);
