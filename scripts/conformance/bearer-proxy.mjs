// A loopback proxy for the MCP conformance suite, which cannot send headers of its own: every
// request is passed to the node unchanged (Host and Origin too, so the DNS-rebinding scenario
// still reaches the node's validator) with `Authorization: Bearer $TOKEN` added when it has none.
// Usage: TOKEN=… node bearer-proxy.mjs LISTEN_PORT TARGET_PORT
import http from 'node:http';

const [listenPort, targetPort] = process.argv.slice(2).map(Number);
const token = process.env.TOKEN;
if (!listenPort || !targetPort || !token) {
  console.error('usage: TOKEN=… node bearer-proxy.mjs LISTEN_PORT TARGET_PORT');
  process.exit(2);
}

http.createServer((request, response) => {
  const headers = { ...request.headers };
  headers.authorization ??= `Bearer ${token}`;
  const upstream = http.request(
    { host: '127.0.0.1', port: targetPort, method: request.method, path: request.url, headers },
    (answer) => {
      response.writeHead(answer.statusCode, answer.rawHeaders);
      answer.pipe(response);
    });
  upstream.on('error', (error) => {
    response.writeHead(502, { 'content-type': 'text/plain' });
    response.end(`bearer-proxy: ${error.message}\n`);
  });
  request.pipe(upstream);
}).listen(listenPort, '127.0.0.1');
