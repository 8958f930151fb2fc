// RFC 8785 cross-check: a generated corpus canonicalized by the independent `canonicalize` npm
// package and by `mcp-trust canonicalize`, compared byte for byte.
//
// Usage: node jcs_corpus.mjs <path to mcp-trust> [documents=3000] [seed=8785]
//
// The corpus is JSON *text*, so the parser is exercised too: nested objects and arrays, member names
// across the Basic Multilingual Plane and the astral planes (raw UTF-8 and \u escapes, surrogate
// pairs, upper- and lower-case hex), every short escape, random whitespace, and numbers in many
// spellings (random IEEE-754 bit patterns, subnormals, 2^53 +- 1, 25-digit decimals that need
// correct rounding, exponents near the ends of the range). A second set of texts must be refused by
// both (lone surrogates, overflowing numbers), and duplicate names, which JSON.parse silently
// resolves, must be refused by mcp-trust.
import { check, finish, peer, prng, referenceCanonical, run } from './common.mjs';

const canonicalize = (await peer('canonicalize/lib/canonicalize.js')).default;

const [bin, countArg, seedArg] = process.argv.slice(2);
if (!bin) {
  console.error('usage: node jcs_corpus.mjs <mcp-trust> [documents] [seed]');
  process.exit(2);
}
const count = Number(countArg ?? 3000);
const rng = prng(Number(seedArg ?? 8785));

// ---- generator

const ws = () => (rng.chance(0.7) ? '' : rng.pick([' ', '\n', '\t', '\r', '  ', ' \n ']));
const hex4 = (u) => {
  const h = u.toString(16).padStart(4, '0');
  return rng.chance(0.5) ? h : h.toUpperCase();
};

function randomCodePoint() {
  switch (rng.int(9)) {
    case 0: return 0x20 + rng.int(0x5f);        // printable ASCII
    case 1: return rng.int(0x20);               // controls
    case 2: return rng.pick([0x22, 0x5c, 0x2f, 0x7f, 0x2028, 0x2029, 0xfeff, 0xfffd, 0xffff]);
    case 3: return 0x80 + rng.int(0x780);       // 2-byte UTF-8
    case 4: return 0x800 + rng.int(0xd800 - 0x800);
    case 5: return 0xe000 + rng.int(0x2000);    // sorts after astral in UTF-16, before in UTF-8
    case 6: return 0xf900 + rng.int(0x700);
    case 7: return 0x10000 + rng.int(0x100000); // astral
    default: return rng.pick([0x1f600, 0x1f602, 0x10000, 0x10ffff, 0x20000, 0xe9, 0x20ac]);
  }
}

// One code point as JSON string text, in a randomly chosen legal spelling.
function encodeCodePoint(cp) {
  const short = { 0x22: '\\"', 0x5c: '\\\\', 0x2f: '\\/', 0x08: '\\b', 0x0c: '\\f', 0x0a: '\\n', 0x0d: '\\r', 0x09: '\\t' };
  const mustEscape = cp < 0x20 || cp === 0x22 || cp === 0x5c;
  if (short[cp] && (mustEscape || rng.chance(0.3))) return short[cp];
  if (mustEscape || rng.chance(0.25)) {
    if (cp < 0x10000) return `\\u${hex4(cp)}`;
    const v = cp - 0x10000;
    return `\\u${hex4(0xd800 + (v >> 10))}\\u${hex4(0xdc00 + (v & 0x3ff))}`;
  }
  return String.fromCodePoint(cp);
}

// Returns [text, decoded value].
function randomString(maxLen = 12) {
  const n = rng.int(maxLen + 1);
  let text = '"';
  let value = '';
  for (let i = 0; i < n; i++) {
    const cp = randomCodePoint();
    text += encodeCodePoint(cp);
    value += String.fromCodePoint(cp);
  }
  return [text + '"', value];
}

const specialNumbers = [
  '0', '-0', '-0.0', '0e0', '1', '-1', '1.0', '1e0', '1E+2', '1e-2', '0.1', '0.000001', '1e-7', '1e21', '1e20',
  '9007199254740991', '9007199254740992', '9007199254740993', '-9007199254740993', '18446744073709551615',
  '123456789012345678901234567890', '5e-324', '2.2250738585072014e-308', '2.225073858507201e-308',
  '1.7976931348623157e308', '4.9406564584124654e-324', '0.30000000000000004', '333333333.33333329',
  '1e-400', '-1e-400', '100000000000000000000', '999999999999999999999', '1.5e300', '295147905179352830000',
];

function randomNumberText() {
  switch (rng.int(6)) {
    case 0: return rng.pick(specialNumbers);
    case 1: {
      // Random bit pattern, printed by JavaScript in one of its spellings.
      const view = new DataView(new ArrayBuffer(8));
      view.setUint32(0, (rng.next() * 2 ** 32) >>> 0);
      view.setUint32(4, (rng.next() * 2 ** 32) >>> 0);
      const d = view.getFloat64(0);
      if (!Number.isFinite(d)) return '0.5';
      const forms = [String(d), d.toExponential(), d.toExponential(rng.int(20)), d.toPrecision(1 + rng.int(21))];
      return rng.pick(forms);
    }
    case 2: {
      // Long decimals: only a correctly rounding parser gets these right every time.
      let digits = String(1 + rng.int(9));
      const len = 1 + rng.int(30);
      for (let i = 0; i < len; i++) digits += String(rng.int(10));
      const exp = rng.int(620) - 320;
      return `${rng.chance(0.5) ? '-' : ''}${digits[0]}.${digits.slice(1)}e${exp}`;
    }
    case 3: return String(rng.int(2 ** 31) - 2 ** 30);
    case 4: {
      let digits = String(1 + rng.int(9));
      const len = rng.int(25);
      for (let i = 0; i < len; i++) digits += String(rng.int(10));
      return (rng.chance(0.3) ? '-' : '') + digits;
    }
    default: return `${rng.int(1000)}.${String(rng.int(1000000)).padStart(6, '0')}${rng.chance(0.5) ? 'E' : 'e'}${rng.pick(['', '+', '-'])}${rng.int(30)}`;
  }
}

function randomValue(depth) {
  const r = rng.int(depth > 6 ? 5 : 8);
  if (r === 0) return rng.pick(['true', 'false', 'null']);
  if (r === 1 || r === 2) {
    const t = randomNumberText();
    return Number.isFinite(JSON.parse(t)) ? t : '1';
  }
  if (r === 3 || r === 4) return randomString()[0];
  if (r === 5) {
    const n = rng.int(6);
    const items = [];
    for (let i = 0; i < n; i++) items.push(ws() + randomValue(depth + 1) + ws());
    return `[${items.join(',')}]`;
  }
  const n = rng.int(7);
  const seen = new Set();
  const members = [];
  for (let i = 0; i < n; i++) {
    // Array-index-like names are where JavaScript objects reorder keys; include them often.
    let [kt, kv] = rng.chance(0.15) ? (() => { const k = rng.pick(['0', '1', '9', '10', '01', '-1', '4294967294', '4294967295', '1e3']); return [`"${k}"`, k]; })() : randomString(6);
    if (seen.has(kv)) continue; // duplicates are tested separately
    seen.add(kv);
    members.push(`${ws()}${kt}${ws()}:${ws()}${randomValue(depth + 1)}${ws()}`);
  }
  return `{${members.join(',')}}`;
}

// ---- positive corpus: byte-for-byte agreement

const docs = [];
for (let i = 0; i < count; i++) docs.push(ws() + randomValue(0) + ws());

const expectedAll = Buffer.from(canonicalize(docs.map((d) => JSON.parse(d))), 'utf8');
const all = run(bin, ['canonicalize', '-'], `[${docs.join(',')}]`);
check(all.code === 0, `mcp-trust canonicalizes the ${count}-document corpus (${Buffer.byteLength(docs.join(','))} bytes)`, all.err);
const same = all.code === 0 && Buffer.compare(all.out, expectedAll) === 0;
check(same, `corpus output is byte-identical to canonicalize@5.1.0 (${expectedAll.length} bytes)`);
if (!same && all.code === 0) {
  // Narrow down to the first differing documents, one process each.
  let shown = 0;
  for (const d of docs) {
    const ours = run(bin, ['canonicalize', '-'], d);
    const theirs = Buffer.from(canonicalize(JSON.parse(d)), 'utf8');
    if (ours.code !== 0 || Buffer.compare(ours.out, theirs) !== 0) {
      console.log(`  input:  ${JSON.stringify(d)}\n  ours:   ${ours.out.toString()} ${ours.err}\n  theirs: ${theirs.toString()}`);
      if (++shown === 5) break;
    }
  }
}

// Top-level scalars and a sample of single documents, one process each.
let singleOk = 0;
const singles = ['0', '-0', '"\\u00e9"', 'true', 'null', '1e21', '[]', '{}', ...docs.slice(0, 100)];
for (const d of singles) {
  const ours = run(bin, ['canonicalize', '-'], d);
  if (ours.code === 0 && Buffer.compare(ours.out, Buffer.from(canonicalize(JSON.parse(d)), 'utf8')) === 0) singleOk++;
  else console.log(`  differs: ${JSON.stringify(d)} -> ${ours.out.toString()} ${ours.err}`);
}
check(singleOk === singles.length, `${singleOk}/${singles.length} single documents agree`);

// ---- texts both must refuse

const refused = [
  '"\\ud800"', '"\\udc00"', '["a\\ud83d"]', '{"\\udfff":1}', '"\\ud83d\\u0041"', '1e400', '[-1e999]',
];
for (const t of refused) {
  let npmThrew = false;
  try { canonicalize(JSON.parse(t)); } catch { npmThrew = true; }
  const ours = run(bin, ['canonicalize', '-'], t);
  check(npmThrew && ours.code === 1 && ours.out.length === 0, `both refuse ${t}`, `npm threw: ${npmThrew}; mcp-trust: ${ours.code} ${ours.err.trim()}`);
}

// Duplicate names: JSON.parse keeps the last value, so canonicalize cannot even see them; mcp-trust
// refuses the text. A signature check built on JSON.parse would accept both readings.
for (const t of ['{"a":1,"a":2}', '{"a":1,"\\u0061":2}', '[{"x":{"k":true,"k":false}}]']) {
  const ours = run(bin, ['canonicalize', '-'], t);
  check(ours.code === 1 && /duplicate member name/.test(ours.err), `mcp-trust refuses duplicate names in ${t}`, ours.err);
}

// ---- informational: where the reference's sorted-keys JSON.stringify parts from RFC 8785

let refDiffers = 0;
for (const d of docs) if (referenceCanonical(JSON.parse(d)) !== canonicalize(JSON.parse(d))) refDiffers++;
console.log(`info sorted-keys JSON.stringify (reference) differs from RFC 8785 on ${refDiffers}/${count} documents ` +
            '(all of them hold array-index-like member names)');
let refDiffersWithoutIndexKeys = 0;
for (const d of docs) {
  const v = JSON.parse(d);
  const hasIndexKey = JSON.stringify(v).match(/"(0|[1-9][0-9]*)":/);
  if (!hasIndexKey && referenceCanonical(v) !== canonicalize(v)) refDiffersWithoutIndexKeys++;
}
check(refDiffersWithoutIndexKeys === 0, 'without array-index-like names, the reference form equals RFC 8785');

finish();
