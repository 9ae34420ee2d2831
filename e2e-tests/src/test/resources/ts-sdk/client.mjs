// An agent on the TypeScript MCP SDK (the version TypeScriptSdkClient installs) against a node:
// connect over streamable HTTP with a bearer token, list the tools, call one. Prints one JSON
// line: what it got, or the error the SDK raised, and how long it took.
//   node client.mjs <url> <token> <tool> <arguments as JSON>
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [url, token, tool, args] = process.argv.slice(2);
const client = new Client({ name: 'opledger-ts-sdk-test', version: '1' });
const transport = new StreamableHTTPClientTransport(new URL(url), {
  requestInit: { headers: { Authorization: `Bearer ${token}` } }
});
const started = Date.now();
const report = {};
try {
  await client.connect(transport);
  report.protocolVersion = transport.protocolVersion;
  report.tools = (await client.listTools()).tools.map((t) => t.name);
  report.call = await client.callTool({ name: tool, arguments: JSON.parse(args) });
} catch (error) {
  report.error = { name: error?.constructor?.name, code: error?.code, message: String(error?.message ?? error) };
}
report.elapsedMs = Date.now() - started;
await client.close().catch(() => {});
console.log(JSON.stringify(report));
