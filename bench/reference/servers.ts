// Reference servers for the HTTP benchmark (bare uWebSockets.js, minimal node:http) replaying vjd's captured answers per path.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadUws } from '../../src/http/uws.js';

/** One captured vjd answer: served for `url` (path plus query, as the client sends it). */
export interface ReferenceRoute {
  url: string;
  status: number;
  headers: Record<string, string>;
  /** base64 body; empty for 304. */
  body: string;
  /** When set, a request whose If-None-Match equals it gets 304 with the headers and no body. */
  etag?: string;
}

const STATUS_TEXT: Record<number, string> = { 200: 'OK', 304: 'Not Modified', 404: 'Not Found' };

interface Prepared {
  status: number;
  statusLine: string;
  headers: Array<[string, string]>;
  body: Buffer;
  etag: string | undefined;
}

function prepare(routes: ReferenceRoute[]): Map<string, Prepared> {
  const map = new Map<string, Prepared>();
  for (const r of routes) {
    map.set(r.url, {
      status: r.status,
      statusLine: `${r.status} ${STATUS_TEXT[r.status] ?? 'OK'}`,
      headers: Object.entries(r.headers),
      body: Buffer.from(r.body, 'base64'),
      etag: r.etag,
    });
  }
  return map;
}

/** Status and body for one request: 304 on a matching If-None-Match, else the captured answer (no body when it was a 304). */
function answer(p: Prepared, ifNoneMatch: string): { status: number; statusLine: string; body: Buffer | null } {
  if (p.etag !== undefined && ifNoneMatch === p.etag) return { status: 304, statusLine: '304 Not Modified', body: null };
  if (p.status === 304) return { status: 200, statusLine: '200 OK', body: Buffer.alloc(0) };
  return { status: p.status, statusLine: p.statusLine, body: p.body };
}

const [kind, portArg, routesFile] = process.argv.slice(2);
if ((kind !== 'uws' && kind !== 'node') || !portArg || !routesFile) {
  process.stderr.write('usage: servers.js uws|node PORT ROUTES_JSON_FILE\n');
  process.exit(2);
}
const port = Number(portArg);
const routes = prepare(JSON.parse(readFileSync(routesFile, 'utf8')) as ReferenceRoute[]);
const NOT_FOUND = Buffer.from('{"error":true,"code":"NOT_FOUND","message":"no such route"}');

if (kind === 'uws') {
  const { uws } = loadUws();
  uws
    .App()
    .any('/*', (res, req) => {
      const query = req.getQuery();
      const url = query ? `${req.getUrl()}?${query}` : req.getUrl();
      const p = routes.get(url);
      if (!p) {
        res.cork(() => void res.writeStatus('404 Not Found').end(NOT_FOUND));
        return;
      }
      const a = answer(p, req.getHeader('if-none-match'));
      res.cork(() => {
        res.writeStatus(a.statusLine);
        for (const [k, v] of p.headers) res.writeHeader(k, v);
        if (a.body === null) res.endWithoutBody();
        else res.end(a.body);
      });
    })
    .listen('127.0.0.1', port, (ok) => {
      if (!ok) process.exit(1);
      process.stdout.write('ready\n');
    });
} else {
  createServer((req, res) => {
    const p = routes.get(req.url ?? '');
    if (!p) {
      res.writeHead(404, { 'Content-Length': NOT_FOUND.length });
      res.end(NOT_FOUND);
      return;
    }
    const inm = req.headers['if-none-match'];
    const a = answer(p, typeof inm === 'string' ? inm : '');
    const headers: Record<string, string | number> = Object.fromEntries(p.headers);
    if (a.body !== null) headers['Content-Length'] = a.body.length;
    res.writeHead(a.status, headers);
    res.end(a.body ?? undefined);
  }).listen(port, '127.0.0.1', () => process.stdout.write('ready\n'));
}
