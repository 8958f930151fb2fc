// A reference TypeScript SDK 2.x server (@modelcontextprotocol/server), speaking MCP 2026-07-28 and,
// for older clients, 2025-11-25, for our client to be tested against.
//   node ts2_server.mjs stdio      serves stdin/stdout (serveStdio)
//   node ts2_server.mjs http PORT  serves Streamable HTTP on 127.0.0.1 (createMcpHandler), 0 = any
//                                  port; prints "listening on http://127.0.0.1:N/mcp"
// Tools: add (a + b), confirm (a multi round-trip elicitation), regional (an x-mcp-header
// argument), slow (answers after 50 ms), echo (its text; what bench/http/run.sh calls).
// Resource: mem://note. Prompt: greet.
import http from 'node:http';
import { createRequire } from 'node:module';

const require = createRequire(`${process.env.MCP_NODE_DIR}/node_modules/`);
const { McpServer, createMcpHandler, fromJsonSchema, inputRequired, acceptedContent } =
  await import(require.resolve('@modelcontextprotocol/server'));
const { serveStdio } = await import(require.resolve('@modelcontextprotocol/server/stdio'));

const schema = (properties, required = []) => fromJsonSchema({ type: 'object', properties, required });

function makeServer() {
  const server = new McpServer({ name: 'reference-ts2-server', version: '2.3.1' });
  server.registerTool('add', { description: 'Adds two integers', inputSchema: schema({ a: { type: 'integer' }, b: { type: 'integer' } }, ['a', 'b']) },
    async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }));
  // A tool without an inputSchema gets the context alone.
  server.registerTool('confirm', { description: 'Asks the user to confirm, then answers' }, async (ctx) => {
    const answer = acceptedContent(ctx.mcpReq.inputResponses, 'ok');
    if (!answer) {
      return inputRequired({ inputRequests: { ok: inputRequired.elicit({
        message: 'Proceed?', requestedSchema: { type: 'object', properties: { go: { type: 'boolean' } }, required: ['go'] } }) } });
    }
    return { content: [{ type: 'text', text: `confirmed: ${JSON.stringify(answer)}` }] };
  });
  server.registerTool('regional', {
    description: 'Runs in a region mirrored into Mcp-Param-Region',
    inputSchema: schema({ region: { type: 'string', 'x-mcp-header': 'Region' } }, ['region']),
  }, async ({ region }) => ({ content: [{ type: 'text', text: `ran in ${region}` }] }));
  server.registerTool('slow', { description: 'Answers after 50 ms' }, async () => {
    await new Promise((r) => setTimeout(r, 50));
    return { content: [{ type: 'text', text: 'slow done' }] };
  });
  server.registerTool('echo', { description: 'Echoes its text', inputSchema: schema({ text: { type: 'string' } }, ['text']) },
    async ({ text }) => ({ content: [{ type: 'text', text }] }));
  server.registerResource('note', 'mem://note', { mimeType: 'text/plain' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'a note' }] }));
  server.registerPrompt('greet', { description: 'Greets' },
    async () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'hello' } }] }));
  return server;
}

const mode = process.argv[2];
if (mode === 'stdio') {
  serveStdio(() => makeServer());
} else if (mode === 'http') {
  const handler = createMcpHandler(() => makeServer());
  const httpServer = http.createServer(async (req, res) => {
    // node:http to fetch: the handler takes a web Request and answers a web Response.
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = chunks.length ? Buffer.concat(chunks) : undefined;
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
    const controller = new AbortController();
    res.on('close', () => controller.abort());
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method, headers, body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body, signal: controller.signal });
    const response = await handler.fetch(request);
    res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
    if (!response.body) return res.end();
    try {
      for await (const chunk of response.body) res.write(chunk);
    } catch { /* the client went away */ }
    res.end();
  });
  httpServer.listen(Number(process.argv[3] ?? 0), '127.0.0.1', () => {
    console.log(`listening on http://127.0.0.1:${httpServer.address().port}/mcp`);
  });
} else {
  console.error('usage: ts2_server.mjs stdio | http PORT');
  process.exit(2);
}
