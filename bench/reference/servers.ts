// Reference servers for the HTTP benchmark: a bare uWebSockets.js app and a minimal node:http server
// answering the same JSON bytes vjd sends, so vjd's numbers are read as ratios against them.
import { createServer } from 'node:http';
import { loadUws } from '../../src/http/uws.js';

const [kind, portArg, bodyB64] = process.argv.slice(2);
const port = Number(portArg);
const body = Buffer.from(bodyB64 ?? '', 'base64');

if (kind === 'uws') {
  const { uws } = loadUws();
  uws
    .App()
    .get('/*', (res) => {
      res.cork(() => {
        res.writeStatus('200 OK').writeHeader('Content-Type', 'application/json; charset=utf-8').end(body);
      });
    })
    .listen('127.0.0.1', port, (ok) => {
      if (!ok) process.exit(1);
      process.stdout.write('ready\n');
    });
} else if (kind === 'node') {
  createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
    res.end(body);
  }).listen(port, '127.0.0.1', () => process.stdout.write('ready\n'));
} else {
  process.stderr.write('usage: servers.js uws|node PORT BODY_BASE64\n');
  process.exit(2);
}
