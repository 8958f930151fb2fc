// The reference TypeScript clients through `mcp-trust gateway` to the reference server-everything
// (a 2025-11-25 stdio server): the 1.x client (@modelcontextprotocol/sdk, 2025-11-25 sessions) and
// the 2.x client (@modelcontextprotocol/client, pinned to 2026-07-28, stateless), each listing and
// using tools, prompts and resources at the gateway's /servers/NAME/mcp.
// Usage: node ts_clients_through_gateway.mjs URL   (MCP_NODE_DIR set). Prints one line per check
// and exits non-zero if any failed.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

const require = createRequire(`${process.env.MCP_NODE_DIR}/node_modules/`);
const v1 = {
  Client: require('@modelcontextprotocol/sdk/client/index.js').Client,
  Transport: require('@modelcontextprotocol/sdk/client/streamableHttp.js').StreamableHTTPClientTransport,
};
const v2 = await import(require.resolve('@modelcontextprotocol/client'));

const url = new URL(process.argv[2]);
let passed = 0, failed = 0;
async function check(name, body) {
  try { await body(); passed++; console.log(`ok   ${name}`); }
  catch (e) { failed++; console.log(`FAIL ${name}: ${e?.stack ?? e}`); }
}
const text = (r) => r.content?.map((c) => c.text ?? '').join('') ?? '';

async function exercise(label, client) {
  await check(`${label}: tools/list and echo through the gateway`, async () => {
    const { tools } = await client.listTools();
    assert.ok(tools.some((t) => t.name === 'echo'), JSON.stringify(tools.map((t) => t.name)));
    const r = await client.callTool({ name: 'echo', arguments: { message: `hello from ${label}` } });
    assert.match(text(r), new RegExp(`hello from ${label}`));
  });
  await check(`${label}: prompts/list and prompts/get`, async () => {
    const { prompts } = await client.listPrompts();
    const simple = prompts.find((p) => !(p.arguments ?? []).some((a) => a.required));
    assert.ok(simple, 'a prompt without required arguments');
    const got = await client.getPrompt({ name: simple.name, arguments: {} });
    assert.ok(got.messages.length > 0);
  });
  await check(`${label}: resources/list and resources/read`, async () => {
    const { resources } = await client.listResources();
    assert.ok(resources.length > 0);
    const read = await client.readResource({ uri: resources[0].uri });
    assert.equal(read.contents[0].uri, resources[0].uri);
  });
  await check(`${label}: an unknown tool is a clear error`, async () => {
    await assert.rejects(client.callTool({ name: 'no_such_tool', arguments: {} }), /no_such_tool|not found|Unknown/i);
  });
}

const c1 = new v1.Client({ name: 'reference-ts-client', version: '1.0.0' }, { capabilities: {} });
await check('1.x client connects (2025-11-25 session)', async () => {
  await c1.connect(new v1.Transport(url));
  assert.match(c1.getServerVersion().name, /^mcp-trust-gateway\//);
});
await exercise('1.x', c1);
await c1.close();

const c2 = new v2.Client({ name: 'reference-ts2-client', version: '1.0.0' },
                         { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } });
await check('2.x client connects speaking 2026-07-28', async () => {
  await c2.connect(new v2.StreamableHTTPClientTransport(url));
  assert.equal(c2.getProtocolEra(), 'modern');
});
await exercise('2.x', c2);
await c2.close();

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
