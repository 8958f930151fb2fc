// The gateway's review page (issue 13) in a real browser: Playwright drives Debian's Chromium
// (/usr/bin/chromium) against `mcp-trust gateway` in front of review-fixture, while the reference
// TypeScript client (@modelcontextprotocol/sdk 1.x) calls tools through the gateway. A rug pull
// appears as a difference; approving it in the page (from the keyboard) restores the tool for the
// client; a call the policy asks about is allowed from the page and completes, a denied one fails
// with a clear error, and one is decided with `mcp-trust gateway decide`; the XSS payloads in the
// upstream's descriptions stay text; another origin cannot act even with the token; the audit log
// holds every decision and verifies; a pin is forgotten from the page once confirmed, and a pruned
// log is shown as such. Every wait is on something the page or a process does.
//
// Usage: node review_page_test.mjs BIN_DIR REVIEW_FIXTURE   (MCP_NODE_DIR set: .deps/node)
// MCP_REVIEW_SCREENSHOTS=DIR also saves screenshots of the page there (docs/ has them).
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';

const require = createRequire(`${process.env.MCP_NODE_DIR}/node_modules/`);
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');
const { chromium } = require('playwright-core');

const [binDir, fixture] = process.argv.slice(2);
const shots = process.env.MCP_REVIEW_SCREENSHOTS;
const tmp = mkdtempSync(path.join(os.tmpdir(), 'review-page-'));
const state = path.join(tmp, 'state');
const mcpTrust = path.join(binDir, 'mcp-trust');
const WAIT = { timeout: 20000 };

let passed = 0, failed = 0;
async function check(name, body) {
  try { await body(); passed++; console.log(`ok   ${name}`); }
  catch (e) { failed++; console.log(`FAIL ${name}: ${e?.stack ?? e}`); }
}
const text = (r) => r.content?.map((c) => c.text ?? '').join('') ?? '';

// The gateway, once it says where it listens.
writeFileSync(path.join(tmp, 'servers.json'), JSON.stringify({
  mcpServers: { notes: { command: fixture } },
  gateway: { servers: { notes: { ask: ['send_message'], askTimeoutSeconds: 60 } } },
}));
const gateway = spawn(mcpTrust, ['gateway', '--config', path.join(tmp, 'servers.json'), '--listen', '127.0.0.1:0', '--state', state],
                      { stdio: ['ignore', 'pipe', 'pipe'] });
let stderr = '';
gateway.stderr.on('data', (d) => { stderr += d; });
const urls = await new Promise((resolve, reject) => {
  const found = {};
  readline.createInterface({ input: gateway.stdout }).on('line', (line) => {
    const [name, url] = line.split(' ');
    if (line.startsWith('listening on ')) resolve(found);
    else if (url) found[name] = url;
  });
  gateway.on('exit', (code) => reject(new Error(`the gateway exited (${code}): ${stderr}`)));
  setTimeout(() => reject(new Error(`the gateway did not start: ${stderr}`)), 60000).unref();
});
const reviewUrl = urls['(review)'];
const base = reviewUrl.slice(0, reviewUrl.indexOf('/ui'));
const token = reviewUrl.slice(reviewUrl.indexOf('#token=') + '#token='.length);

const client = new Client({ name: 'review-page-test', version: '1.0.0' });
await client.connect(new StreamableHTTPClientTransport(new URL(urls.notes)));

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
         '--disable-component-update', '--disable-sync'],
});
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
const pageErrors = [];
page.on('pageerror', (e) => pageErrors.push(String(e)));
// Offline: the page asks nothing of any host but the gateway (no CDN, no font, no analytics).
const elsewhere = [];
page.on('request', (r) => { if (!r.url().startsWith(base + '/')) elsewhere.push(r.url()); });
const shot = async (name) => { if (shots) await page.screenshot({ path: path.join(shots, name), fullPage: true }); };
const cardText = (selector) => page.locator(selector).first().innerText();

try {
  await check('the page opens with the printed link, shows the upstream, and drops the token from the address', async () => {
    await page.goto(reviewUrl);
    await page.waitForSelector('#upstreams tbody tr', WAIT);
    const row = await page.locator('#upstreams tbody tr').first().innerText();
    assert.match(row, /notes\s+connected/);
    assert.ok(!page.url().includes('token'), page.url());
    assert.match(await page.locator('#chain').innerText(), /intact/);
  });

  await check('a rug pull appears as a side-by-side difference, and its payloads stay text', async () => {
    assert.match(text(await client.callTool({ name: 'rug_pull', arguments: {} })), /changed/);
    await page.waitForSelector('#changes article', WAIT);
    const card = await cardText('#changes article');
    assert.match(card, /write_note/);
    assert.match(card, /changed since it was approved/);
    assert.match(card, /Changed: annotations\s*description/);
    // Both payloads are on the page as the text they are...
    assert.ok(card.includes(`<img src=x onerror=\\"window.__xss='img'\\">`), card);
    assert.ok(card.includes(`<script>window.__xss='script'</script>`), card);
    // ...and nothing ran or was made an element.
    assert.equal(await page.evaluate(() => window.__xss), undefined);
    assert.equal(await page.locator('main img, main script').count(), 0);
    // The lines that differ are marked on both sides.
    assert.ok(await page.locator('#changes td.del').count() > 0);
    assert.ok(await page.locator('#changes td.add').count() > 0);
    await shot('review-page-diff.png');
  });

  await check('the quarantined tool is hidden from the client and its calls refused, saying how to approve', async () => {
    const { tools } = await client.listTools();
    assert.ok(!tools.some((t) => t.name === 'write_note'), JSON.stringify(tools.map((t) => t.name)));
    const refused = await client.callTool({ name: 'write_note', arguments: { text: 'x' } }).then(() => null, (e) => e);
    assert.ok(refused, 'the call was not refused');
    assert.match(refused.message, /quarantined/);
    assert.match(refused.message, /approve/);
  });

  await check('approving it in the page, from the keyboard, restores the tool for the client', async () => {
    const approve = page.locator('button[data-key="approve-notes/tools/write_note"]');
    await approve.focus();
    await page.keyboard.press('Enter');
    await page.waitForSelector('#changes p.empty', WAIT);
    assert.match(await page.locator('#status').innerText(), /Approved write_note of notes/);
    const r = await client.callTool({ name: 'write_note', arguments: { text: 'after approval' } });
    assert.equal(text(r), 'noted: after approval');
  });

  await check('a call the policy asks about waits, is allowed in the page, and completes', async () => {
    const progress = [];
    const call = client.callTool({ name: 'send_message', arguments: { to: 'ada', text: 'hello' } }, undefined,
                                 { onprogress: (p) => progress.push(p), timeout: 60000 });
    await page.waitForSelector('#calls article', WAIT);
    const card = await cardText('#calls article');
    assert.match(card, /send_message/);
    assert.match(card, /"to":"ada"/);
    await shot('review-page-ask.png');
    await page.locator('#calls button.yes').first().click();
    assert.equal(text(await call), 'sent to ada');
    assert.ok(progress.length >= 1, 'no progress while it waited');
    assert.match(progress[0].message ?? '', /waiting for a person to allow tools\/call of send_message/);
    await page.waitForSelector('#calls p.empty', WAIT);
  });

  await check('a call denied in the page fails with a clear error', async () => {
    const call = client.callTool({ name: 'send_message', arguments: { to: 'eve', text: 'psst' } }, undefined, { timeout: 60000 })
      .then(() => null, (e) => e);
    await page.waitForSelector('#calls article', WAIT);
    await page.locator('#calls button.no').first().click();
    const err = await call;
    assert.ok(err, 'the denied call succeeded');
    assert.match(err.message, /tools\/call of send_message \(upstream notes\) was not allowed: denied by review page \(127\.0\.0\.1\)/);
  });

  await check('`mcp-trust gateway pending` lists a waiting call and `decide` allows it', async () => {
    const call = client.callTool({ name: 'send_message', arguments: { to: 'bob', text: 'hi' } }, undefined, { timeout: 60000 });
    await page.waitForSelector('#calls article', WAIT);  // it is recorded
    const pending = JSON.parse(execFileSync(mcpTrust, ['gateway', 'pending', '--state', state, '--json'], { encoding: 'utf8' }));
    assert.equal(pending.length, 1, JSON.stringify(pending));
    assert.equal(pending[0].item, 'send_message');
    execFileSync(mcpTrust, ['gateway', 'decide', '--state', state, String(pending[0].id), 'allow']);
    assert.equal(text(await call), 'sent to bob');
  });

  await check('every decision is in the audit log with who made it, and the chain verifies', async () => {
    await page.waitForFunction(() => document.querySelector('#decided tbody tr:nth-child(3)') !== null, null, WAIT);
    const decided = await page.locator('#decided').innerText();
    assert.match(decided, /allow\s+cli:/);
    assert.match(decided, /deny\s+review page \(127\.0\.0\.1\)/);
    assert.match(decided, /allow\s+review page \(127\.0\.0\.1\)/);
    const audit = await page.locator('#audit').innerText();
    for (const kind of ['approve', 'ask', 'allow', 'deny']) assert.match(audit, new RegExp(`\\b${kind}\\b`), kind);
    assert.match(await page.locator('#chain').innerText(), /The chain is intact/);
    const verify = execFileSync(mcpTrust, ['audit', 'verify', '--state', state], { encoding: 'utf8' });
    assert.match(verify, /^intact: \d+ records/);
    await shot('review-page.png');
  });

  await check('a page of another origin cannot act, even holding the token', async () => {
    const other = http.createServer((_, res) => { res.setHeader('Content-Type', 'text/html'); res.end('<p>elsewhere</p>'); });
    await new Promise((r) => other.listen(0, '127.0.0.1', r));
    const evil = await browser.newPage();
    await evil.goto(`http://127.0.0.1:${other.address().port}/`);
    const outcome = await evil.evaluate(async ([url, t]) => {
      try {
        const r = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Review-Token': t },
                                     body: JSON.stringify({ server: 'notes', kind: 'tools', key: 'write_note', decision: 'reject' }) });
        return 'answered ' + r.status;
      } catch (e) { return 'blocked'; }
    }, [`${base}/ui/api/pins`, token]);
    // Blocked by the browser: the custom token header needs a CORS preflight, which the gateway
    // refuses (its own Origin check behind it is tested in review_access_test.cpp).
    assert.equal(outcome, 'blocked');
    // A request without a preflight cannot carry the token header: the gateway refuses it (401).
    const form = await evil.evaluate(async (url) => {
      try { const r = await fetch(url, { method: 'POST', mode: 'no-cors', body: 'decision=reject' }); return r.type; }
      catch (e) { return 'blocked'; }
    }, `${base}/ui/api/pins`);
    assert.ok(form === 'opaque' || form === 'blocked', form);
    const pins = JSON.parse(execFileSync(mcpTrust, ['gateway', 'pins', '--state', state, '--json'], { encoding: 'utf8' }));
    assert.equal(pins.find((p) => p.key === 'write_note').state, 'approved');
    await evil.close();
    other.close();
  });

  await check('a pin is forgotten from the page only once confirmed, and the item is pinned afresh', async () => {
    const forget = page.locator('button[data-key="forget-notes/tools/rug_pull"]');
    const pinned = () => JSON.parse(execFileSync(mcpTrust, ['gateway', 'pins', '--state', state, '--json'], { encoding: 'utf8' }))
      .filter((p) => p.key === 'rug_pull').length;
    page.once('dialog', (d) => d.dismiss());  // No: nothing changes
    await forget.click();
    assert.equal(pinned(), 1);
    assert.ok(await forget.isEnabled(), 'a No leaves the button usable');
    page.once('dialog', (d) => d.accept());
    await forget.click();
    await page.waitForFunction(() => /Forgot the pin of tool rug_pull of notes/.test(document.querySelector('#status').textContent), null, WAIT);
    // The gateway lists the upstream again: rug_pull, still offered, is pinned again after the forget.
    await page.waitForFunction(() => {
      const rows = [...document.querySelectorAll('#audit tbody tr')].map((tr) => [...tr.cells].map((c) => c.textContent));
      const forgot = rows.find((r) => r[2] === 'forget' && r[3].includes('rug_pull'));
      return forgot && rows.some((r) => r[2] === 'pin' && Number(r[0]) > Number(forgot[0]) && r[3].includes('rug_pull'));
    }, null, WAIT);
    assert.equal(pinned(), 1);
    const audit = execFileSync(mcpTrust, ['audit', 'export', '--state', state], { encoding: 'utf8' });
    assert.match(audit, /"kind":"forget".*review page \(127\.0\.0\.1\)/);
  });

  await check('a pruned log is shown as pruned, and still intact', async () => {
    execFileSync(mcpTrust, ['audit', 'prune', '--state', state, '--keep', '5']);
    await page.waitForFunction(() => /The chain is intact: \d+ records \(records 1 to \d+ pruned\)/.test(document.querySelector('#chain').textContent), null, WAIT);
  });

  await check('the page raised no script error and fetched nothing from elsewhere', async () => {
    assert.deepEqual(pageErrors, []);
    assert.deepEqual(elsewhere, []);
  });
} finally {
  await browser.close();
  await client.close();
  gateway.kill('SIGTERM');
  await new Promise((r) => gateway.on('exit', r));
  rmSync(tmp, { recursive: true, force: true });
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
