// The reference TypeScript SDK client drives our everything-server through every fixture the
// conformance scenarios name, over stdio or Streamable HTTP.
// Usage: node ts_client_vs_server.mjs <server binary> [args...]   |   node ts_client_vs_server.mjs http://host:port/mcp
// Prints one line per check and "N passed, M failed"; exits non-zero if any check failed.
import { createRequire } from 'node:module';
import assert from 'node:assert/strict';

const require = createRequire(process.env.MCP_NODE_DIR + '/node_modules/');
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');
const types = require('@modelcontextprotocol/sdk/types.js');

const [serverBin, ...serverArgs] = process.argv.slice(2);
if (!serverBin) {
  console.error('usage: ts_client_vs_server.mjs <server binary> [args...] | <http URL>');
  process.exit(2);
}

let passed = 0, failed = 0;
async function check(name, fn) {
  try {
    await fn();
    passed++;
    console.log(`ok   ${name}`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${name}: ${e && e.stack || e}`);
  }
}

const client = new Client({ name: 'reference-ts-client', version: '1.0.0' },
                          { capabilities: { sampling: {}, elicitation: {} } });
let samplingRequests = [], elicitRequests = [], logs = [];
client.setRequestHandler(types.CreateMessageRequestSchema, async (req) => {
  samplingRequests.push(req.params);
  return { role: 'assistant', content: { type: 'text', text: 'This is a test response from the client' },
           model: 'test-model', stopReason: 'endTurn' };
});
client.setRequestHandler(types.ElicitRequestSchema, async (req) => {
  elicitRequests.push(req.params);
  const props = req.params.requestedSchema.properties;
  if ('username' in props) return { action: 'accept', content: { username: 'testuser', email: 'test@example.com' } };
  const content = {};
  for (const [k, v] of Object.entries(props)) if ('default' in v) content[k] = v.default;
  return { action: 'accept', content };
});
client.setNotificationHandler(types.LoggingMessageNotificationSchema, (n) => { logs.push(n.params); });

const transport = /^https?:/.test(serverBin)
  ? new StreamableHTTPClientTransport(new URL(serverBin))
  : new StdioClientTransport({ command: serverBin, args: serverArgs, stderr: 'inherit' });
const text = (r) => r.content.filter((c) => c.type === 'text').map((c) => c.text).join('');
// Ordering, not time: the server sends a tool's log messages before the tool's answer, and answers
// this later ping after that; the SDK queues each notification handler as it reads the message, so
// by the time the ping resolves, every handler for what came before has run.
const heardEverythingSentSoFar = () => client.ping();

await check('initialize', async () => {
  await client.connect(transport);
  assert.equal(client.getServerVersion().name, 'mcp-trust-everything-server');
  const caps = client.getServerCapabilities();
  for (const k of ['tools', 'resources', 'prompts', 'logging', 'completions']) assert.ok(caps[k], `capability ${k}`);
});

await check('ping', async () => { assert.deepEqual(await client.ping(), {}); });

const expectedTools = ['test_simple_text', 'test_image_content', 'test_audio_content', 'test_embedded_resource',
  'test_multiple_content_types', 'test_tool_with_logging', 'test_tool_with_progress', 'test_error_handling',
  'test_sampling', 'test_elicitation', 'test_elicitation_sep1034_defaults', 'test_elicitation_sep1330_enums',
  'json_schema_2020_12_tool', 'test_reconnection',
  // The 2026-07-28 fixtures (examples/everything-server/stateless.cpp), listed to every revision.
  'test_input_required_result_elicitation', 'test_input_required_result_sampling',
  'test_input_required_result_list_roots', 'test_input_required_result_request_state',
  'test_input_required_result_multiple_inputs', 'test_input_required_result_multi_round',
  'test_input_required_result_tampered_state', 'test_input_required_result_capabilities',
  'test_missing_capability', 'test_streaming_elicitation', 'test_logging_tool', 'test_trigger_tool_change',
  'test_trigger_prompt_change', 'test_custom_header',
  // Requirements (this client declares sampling): test_ask_model is hidden only from clients
  // without it, test_summarize_without_sampling is what they get instead of test_summarize.
  'test_ask_model', 'test_summarize'];
await check('tools/list', async () => {
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), [...expectedTools].sort());
  for (const t of tools) {
    assert.ok(t.description, `${t.name} has a description`);
    assert.equal(t.inputSchema.type, 'object');
  }
  const js = tools.find((t) => t.name === 'json_schema_2020_12_tool').inputSchema;
  assert.equal(js.$schema, 'https://json-schema.org/draft/2020-12/schema');
  assert.equal(js.additionalProperties, false);
  assert.ok(js.$defs.address.$anchor);
  assert.ok(js.if && js.then && js.else);
});

await check('tools/call test_simple_text', async () => {
  const r = await client.callTool({ name: 'test_simple_text' });
  assert.equal(text(r), 'This is a simple text response for testing.');
});
await check('tools/call test_image_content', async () => {
  const r = await client.callTool({ name: 'test_image_content', arguments: {} });
  assert.equal(r.content[0].type, 'image');
  assert.equal(r.content[0].mimeType, 'image/png');
  assert.ok(Buffer.from(r.content[0].data, 'base64').subarray(1, 4).toString() === 'PNG');
});
await check('tools/call test_audio_content', async () => {
  const r = await client.callTool({ name: 'test_audio_content', arguments: {} });
  assert.equal(r.content[0].type, 'audio');
  assert.equal(r.content[0].mimeType, 'audio/wav');
  assert.equal(Buffer.from(r.content[0].data, 'base64').subarray(0, 4).toString(), 'RIFF');
});
await check('tools/call test_embedded_resource', async () => {
  const r = await client.callTool({ name: 'test_embedded_resource', arguments: {} });
  assert.deepEqual(r.content[0], { type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain',
    text: 'This is an embedded resource content.' } });
});
await check('tools/call test_multiple_content_types', async () => {
  const r = await client.callTool({ name: 'test_multiple_content_types', arguments: {} });
  assert.deepEqual(r.content.map((c) => c.type), ['text', 'image', 'resource']);
  assert.deepEqual(JSON.parse(r.content[2].resource.text), { test: 'data', value: 123 });
});
await check('tools/call test_tool_with_logging (3 log messages)', async () => {
  await client.setLoggingLevel('debug');
  logs = [];
  const r = await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
  assert.equal(text(r), 'Tool with logging executed successfully');
  await heardEverythingSentSoFar();
  assert.deepEqual(logs.map((l) => l.data), ['Tool execution started', 'Tool processing data', 'Tool execution completed']);
  assert.ok(logs.every((l) => l.level === 'info'));
});
await check('logging/setLevel filters lower levels', async () => {
  await client.setLoggingLevel('error');
  logs = [];
  await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
  await heardEverythingSentSoFar();  // so an empty list proves that none was sent
  assert.equal(logs.length, 0);
  await client.setLoggingLevel('debug');
});
await check('tools/call test_tool_with_progress (3 increasing notifications)', async () => {
  const seen = [];
  await client.callTool({ name: 'test_tool_with_progress', arguments: {} }, undefined,
                        { onprogress: (p) => seen.push(p) });
  assert.ok(seen.length >= 3, `got ${seen.length}`);
  assert.deepEqual(seen.slice(0, 3).map((p) => p.progress), [0, 50, 100]);
  assert.ok(seen.every((p) => p.total === 100));
});
await check('tools/call test_error_handling is a tool error', async () => {
  const r = await client.callTool({ name: 'test_error_handling', arguments: {} });
  assert.equal(r.isError, true);
  assert.equal(text(r), 'This tool intentionally returns an error for testing');
});
await check('tools/call test_sampling round trip', async () => {
  samplingRequests = [];
  const r = await client.callTool({ name: 'test_sampling', arguments: { prompt: 'Test prompt for sampling' } });
  assert.equal(samplingRequests.length, 1);
  assert.equal(samplingRequests[0].maxTokens, 100);
  assert.equal(samplingRequests[0].messages[0].content.text, 'Test prompt for sampling');
  assert.equal(text(r), 'LLM response: This is a test response from the client');
});
// A multi round-trip tool in a 2025-11-25 session: the server asks this client itself, once per
// round, and runs the tool again with each answer (src/server/input_required.cpp).
await check('tools/call of a multi round-trip tool: two elicitations through the session', async () => {
  const before = elicitRequests.length;
  const r = await client.callTool({ name: 'test_input_required_result_multi_round', arguments: {} });
  assert.equal(elicitRequests.length - before, 2);
  assert.equal(elicitRequests[before].message, 'Step 1: What is your name?');
  assert.equal(elicitRequests[before + 1].message, 'Step 2: What is your favorite color?');
  assert.match(text(r), /^multi-round complete: /);
});
await check('tools/call test_elicitation round trip', async () => {
  const r = await client.callTool({ name: 'test_elicitation', arguments: { message: 'Please provide your information' } });
  assert.equal(text(r), 'User response: action=accept, content={"username":"testuser","email":"test@example.com"}');
});
await check('tools/call test_elicitation_sep1034_defaults', async () => {
  elicitRequests = [];
  const r = await client.callTool({ name: 'test_elicitation_sep1034_defaults', arguments: {} });
  const p = elicitRequests[0].requestedSchema.properties;
  assert.equal(p.name.default, 'John Doe');
  assert.equal(p.age.type, 'integer'); assert.equal(p.age.default, 30);
  assert.equal(p.score.default, 95.5);
  assert.equal(p.status.default, 'active'); assert.ok(p.status.enum.includes('active'));
  assert.equal(p.verified.default, true);
  assert.match(text(r), /^Elicitation completed: action=accept/);
});
await check('tools/call test_elicitation_sep1330_enums (five enum shapes)', async () => {
  elicitRequests = [];
  await client.callTool({ name: 'test_elicitation_sep1330_enums', arguments: {} });
  const p = elicitRequests[0].requestedSchema.properties;
  assert.ok(Array.isArray(p.untitledSingle.enum) && !p.untitledSingle.oneOf);
  assert.ok(p.titledSingle.oneOf.every((o) => typeof o.const === 'string' && typeof o.title === 'string'));
  assert.equal(p.legacyEnum.enumNames.length, p.legacyEnum.enum.length);
  assert.ok(Array.isArray(p.untitledMulti.items.enum));
  assert.ok(p.titledMulti.items.anyOf.length === 3 && !p.titledMulti.items.enum);
});
await check('tools/call unknown tool is an error', async () => {
  await assert.rejects(client.callTool({ name: 'no_such_tool', arguments: {} }), /Unknown tool/);
});

await check('resources/list', async () => {
  const { resources } = await client.listResources();
  assert.deepEqual(resources.map((r) => r.uri).sort(), ['test://static-binary', 'test://static-text', 'test://watched-resource']);
  assert.ok(resources.every((r) => r.name && r.mimeType));
});
await check('resources/read text and binary', async () => {
  const t = await client.readResource({ uri: 'test://static-text' });
  assert.equal(t.contents[0].text, 'This is the content of the static text resource.');
  const b = await client.readResource({ uri: 'test://static-binary' });
  assert.equal(b.contents[0].mimeType, 'image/png');
  assert.ok(b.contents[0].blob.length > 20);
});
await check('resources/templates/list and templated read', async () => {
  const { resourceTemplates } = await client.listResourceTemplates();
  assert.equal(resourceTemplates[0].uriTemplate, 'test://template/{id}/data');
  const r = await client.readResource({ uri: 'test://template/123/data' });
  assert.deepEqual(JSON.parse(r.contents[0].text), { id: '123', templateTest: true, data: 'Data for ID: 123' });
});
await check('resources/read unknown uri is -32002', async () => {
  await assert.rejects(client.readResource({ uri: 'test://nope' }), (e) => e.code === -32002);
});
await check('resources/subscribe and unsubscribe', async () => {
  assert.deepEqual(await client.subscribeResource({ uri: 'test://watched-resource' }), {});
  assert.deepEqual(await client.unsubscribeResource({ uri: 'test://watched-resource' }), {});
});

await check('prompts/list', async () => {
  const { prompts } = await client.listPrompts();
  assert.deepEqual(prompts.map((p) => p.name).sort(), ['test_input_required_result_prompt', 'test_prompt_with_arguments',
    'test_prompt_with_embedded_resource', 'test_prompt_with_image', 'test_simple_prompt']);
  assert.ok(prompts.every((p) => p.description));
});
await check('prompts/get all four', async () => {
  const s = await client.getPrompt({ name: 'test_simple_prompt' });
  assert.equal(s.messages[0].content.text, 'This is a simple prompt for testing.');
  const a = await client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'testValue1', arg2: 'testValue2' } });
  assert.equal(a.messages[0].content.text, "Prompt with arguments: arg1='testValue1', arg2='testValue2'");
  const e = await client.getPrompt({ name: 'test_prompt_with_embedded_resource', arguments: { resourceUri: 'test://example-resource' } });
  assert.equal(e.messages[0].content.type, 'resource');
  assert.equal(e.messages[0].content.resource.uri, 'test://example-resource');
  const i = await client.getPrompt({ name: 'test_prompt_with_image' });
  assert.equal(i.messages[0].content.type, 'image');
});
await check('prompts/get missing required argument is -32602', async () => {
  await assert.rejects(client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'x' } }),
                       (e) => e.code === -32602);
});
await check('completion/complete', async () => {
  const r = await client.complete({ ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
                                    argument: { name: 'arg1', value: 'test' } });
  assert.ok(r.completion.values.includes('testing'));
  assert.ok(r.completion.values.every((v) => v.startsWith('test')));
});

await check('close', async () => { await client.close(); });
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
