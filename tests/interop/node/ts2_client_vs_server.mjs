// The reference TypeScript SDK 2.x client (@modelcontextprotocol/client, pinned to MCP 2026-07-28)
// against our everything-server, over stdio (argument: the server binary) or Streamable HTTP
// (argument: its URL): stateless requests, server/discover, multi round-trip results answered by
// the client's own handlers, Mcp-Param headers checked by our server, -32021 for a capability the
// request does not declare. Exits non-zero if any check fails.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

const require = createRequire(`${process.env.MCP_NODE_DIR}/node_modules/`);
const { Client, StreamableHTTPClientTransport } = await import(require.resolve('@modelcontextprotocol/client'));
const { StdioClientTransport } = await import(require.resolve('@modelcontextprotocol/client/stdio'));

const target = process.argv[2];
let passed = 0, failed = 0;
async function check(name, body) {
  try { await body(); passed++; console.log(`ok   ${name}`); }
  catch (e) { failed++; console.log(`FAIL ${name}: ${e?.stack ?? e}`); }
}
const transport = () => (/^https?:/.test(target)
  ? new StreamableHTTPClientTransport(new URL(target))
  : new StdioClientTransport({ command: target, args: [] }));
const text = (r) => r.content?.[0]?.text;

function makeClient(capabilities) {
  return new Client({ name: 'reference-ts2-client', version: '1.0.0' },
                    { capabilities, versionNegotiation: { mode: { pin: '2026-07-28' } } });
}

const asked = { elicitation: [], sampling: 0, roots: 0 };
const client = makeClient({ elicitation: { form: {} }, sampling: {}, roots: {} });
client.setRequestHandler('elicitation/create', async (req) => {
  const params = req.params ?? req;
  asked.elicitation.push(params.message);
  const field = Object.keys(params.requestedSchema?.properties ?? {})[0] ?? 'name';
  return { action: 'accept', content: { [field]: field === 'color' ? 'blue' : 'Ada' } };
});
client.setRequestHandler('sampling/createMessage', async () => {
  asked.sampling++;
  return { role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'test-model', stopReason: 'endTurn' };
});
client.setRequestHandler('roots/list', async () => { asked.roots++; return { roots: [{ uri: 'file:///work', name: 'work' }] }; });

await check('connect speaks 2026-07-28', async () => {
  await client.connect(transport());
  assert.equal(client.getProtocolEra(), 'modern');
  const discovered = client.getDiscoverResult?.();
  if (discovered) assert.ok(discovered.supportedVersions.includes('2026-07-28'));
});

await check('tools/list and a call', async () => {
  const { tools } = await client.listTools();
  assert.ok(tools.some((t) => t.name === 'test_simple_text'));
  const r = await client.callTool({ name: 'test_simple_text', arguments: {} });
  assert.equal(text(r), 'This is a simple text response for testing.');
});

await check('multi round-trip: two rounds of elicitation through the client\'s handler', async () => {
  const before = asked.elicitation.length;
  const r = await client.callTool({ name: 'test_input_required_result_multi_round', arguments: {} });
  assert.deepEqual(asked.elicitation.slice(before), ['Step 1: What is your name?', 'Step 2: What is your favorite color?']);
  assert.match(text(r), /^multi-round complete: .*blue/);
});

await check('multi round-trip: elicitation, sampling and roots in one round', async () => {
  const before = { s: asked.sampling, r: asked.roots };
  const r = await client.callTool({ name: 'test_input_required_result_multiple_inputs', arguments: {} });
  assert.equal(asked.sampling - before.s, 1);
  assert.equal(asked.roots - before.r, 1);
  assert.match(text(r), /^all inputs received: /);
});

await check('multi round-trip on prompts/get', async () => {
  const r = await client.getPrompt({ name: 'test_input_required_result_prompt' });
  assert.equal(r.messages[0].content.text, 'Context: Ada');
});

await check('a tool mirroring an argument into Mcp-Param-Region', async () => {
  const r = await client.callTool({ name: 'test_custom_header', arguments: { region: 'eu west 1', priority: 2 } });
  assert.equal(text(r), 'region: "eu west 1"');
});

await check('resources/read and prompts', async () => {
  const r = await client.readResource({ uri: 'test://static-text' });
  assert.match(r.contents[0].text, /static text resource/);
  const { prompts } = await client.listPrompts();
  assert.ok(prompts.some((p) => p.name === 'test_simple_prompt'));
});

await client.close();

await check('a request without the capability a tool needs gets -32021', async () => {
  const bare = makeClient({});
  await bare.connect(transport());
  try {
    await assert.rejects(bare.callTool({ name: 'test_missing_capability', arguments: {} }),
                         (e) => { assert.equal(e.code, -32021, String(e)); return true; });
  } finally { await bare.close(); }
});

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
