// A Streamable HTTP MCP server built with the reference TypeScript SDK, for interop and benchmarks.
// Prints "listening on http://127.0.0.1:PORT/mcp" once ready. Usage: node ts_http_server.mjs [port] [--json]
// Tools: echo {text}, add {a, b}, slow_progress (three progress notifications).
import { createRequire } from 'node:module';
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';

const require = createRequire(process.env.MCP_NODE_DIR + '/node_modules/');
const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');
const { StreamableHTTPServerTransport } = require('@modelcontextprotocol/sdk/server/streamableHttp.js');
const { z } = require('zod');

const port = Number(process.argv[2] ?? 0);
const jsonMode = process.argv.includes('--json');

function makeServer() {
  const server = new McpServer({ name: 'reference-ts-http-server', version: '1.0.0' });
  server.tool('echo', 'Echoes its text', { text: z.string() }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
  server.tool('add', 'Adds two numbers', { a: z.number(), b: z.number() },
              async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }], structuredContent: { sum: a + b } }));
  server.tool('slow_progress', 'Reports three progress steps', {}, async (_args, extra) => {
    const token = extra._meta?.progressToken;
    for (let i = 1; i <= 3; i++) {
      if (token !== undefined) {
        await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: 3 } });
      }
    }
    return { content: [{ type: 'text', text: 'done' }] };
  });
  return server;
}

const transports = new Map();
const http = createServer(async (req, res) => {
  if (new URL(req.url, 'http://x').pathname !== '/mcp') { res.writeHead(404).end(); return; }
  let body;
  if (req.method === 'POST') {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    try { body = JSON.parse(Buffer.concat(chunks).toString()); } catch { res.writeHead(400).end(); return; }
  }
  const sid = req.headers['mcp-session-id'];
  let transport = sid && transports.get(sid);
  if (!transport) {
    if (req.method !== 'POST' || body?.method !== 'initialize') {
      res.writeHead(sid ? 404 : 400, { 'content-type': 'application/json' })
         .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'no session' }, id: null }));
      return;
    }
    transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: jsonMode,
      onsessioninitialized: (id) => transports.set(id, transport),
    });
    transport.onclose = () => { if (transport.sessionId) transports.delete(transport.sessionId); };
    await makeServer().connect(transport);
  }
  await transport.handleRequest(req, res, body);
});
http.listen(port, '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${http.address().port}/mcp`);
});
process.on('SIGTERM', () => process.exit(0));
