// Conformance of the served OpenAPI description: every request of the corpus goes through Prism's validating proxy
// (`prism proxy --errors`) to a real vjd. Prism must report no response violation, and must refuse exactly the
// requests the server refuses (4xx) and forward the ones it serves. Images are compared against the server directly,
// since Prism re-encodes bodies it passes through.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, request as httpRequest } from 'node:http';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import YAML from 'yaml';
import { freePort, ROOT, tempDir, waitUntil } from '../helpers/server.js';
import { AUTH, startFixture, type Fixture } from './fixture.js';
import { CORPUS, type Case } from './corpus.js';

interface Sent {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

type Method = 'GET' | 'POST' | 'DELETE' | 'HEAD' | 'OPTIONS';

// Prism forwards the client's headers, `Connection` included, over its own pooled connections to vjd: a
// `Connection: close` from the test would make vjd close a socket Prism still reuses (then a FetchError). Requests to
// the proxy therefore keep their connection; requests to vjd directly use a fresh one each.
const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });

/** One request; the body and its Content-Type are sent exactly as given. */
function send(
  base: string,
  method: Method,
  path: string,
  headers: Record<string, string>,
  body?: { text: string; type: string },
  endless = false,
  retried = false,
): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const h: Record<string, string> = { ...headers };
    if (body && body.type !== '') h['content-type'] = body.type;
    const r = httpRequest(
      `${base}${path}`,
      { method, headers: h, agent: base === proxy ? keepAlive : false, timeout: Number(process.env.VJD_CONTRACT_TIMEOUT_MS ?? 60_000) },
      (res) => {
        // An endless answer (a live stream) is judged by its status and headers; the connection is closed after them.
        if (endless && method !== 'HEAD' && res.statusCode === 200) {
          resolve({ status: res.statusCode, headers: res.headers, body: Buffer.alloc(0) });
          r.destroy();
          return;
        }
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    r.on('timeout', () => r.destroy(new Error(`timeout ${method} ${path}`)));
    r.on('error', (err: NodeJS.ErrnoException) => {
      // A kept-alive socket Prism closed as this request went out (a loaded box stretches the gaps past its idle
      // timeout): the request never reached it, so it is sent once more on a new socket, as Node's docs advise.
      if (r.reusedSocket && err.code === 'ECONNRESET' && !retried) resolve(send(base, method, path, headers, body, endless, true));
      else reject(err);
    });
    r.end(body?.text);
  });
}

const LOAD_CODES = new Set(['PREVIEW_TIMEOUT', 'THUMBNAIL_QUEUE_FULL', 'CHAIN_BUSY', 'STATE_NOT_SAVED', 'ACTIVATION_TIMEOUT']);

/** A documented answer of a loaded machine (a deadline passed); still validated by Prism like any other answer. */
function loadAnswer(r: Sent): string | null {
  if (r.status !== 503 && r.status !== 504) return null;
  try {
    const code = (JSON.parse(r.body.toString('utf8')) as { code?: string }).code;
    return code !== undefined && LOAD_CODES.has(code) ? `${r.status} ${code}` : null;
  } catch {
    return null;
  }
}

let fx: Fixture;
let prism: ChildProcess | null = null;
let prismLog = '';
let proxy = '';
const loadAnswers: Record<string, number> = {};

test.before(async () => {
  fx = await startFixture();
  const dir = await tempDir('vjd-prism-');
  const spec = join(dir, 'openapi.yaml');
  await writeFile(spec, fx.openapiYaml);
  const port = await freePort();
  proxy = `http://127.0.0.1:${port}`;
  // --cors=false: preflights go to vjd (Prism would answer them itself); --errors: violations become error answers.
  prism = spawn(
    join(ROOT, 'node_modules', '.bin', 'prism'),
    ['proxy', spec, fx.s.base, '--errors', '--cors=false', '-h', '127.0.0.1', '-p', String(port), '-v', 'warn'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  prism.stdout!.on('data', (c: Buffer) => (prismLog += c.toString()));
  prism.stderr!.on('data', (c: Buffer) => (prismLog += c.toString()));
  await waitUntil(
    async () => {
      if (prism?.exitCode !== null) throw new Error(`prism exited:\n${prismLog}`);
      try {
        return (await send(proxy, 'GET', '/api/v1/status', {})).status === 200;
      } catch {
        return false;
      }
    },
    180_000,
    500,
  );
});

test.after(async () => {
  keepAlive.destroy();
  if (prism && prism.exitCode === null) {
    const gone = new Promise((r) => prism!.once('exit', r));
    prism.kill('SIGTERM');
    await gone;
  }
  await fx?.s.cleanup();
});

interface Run {
  op: string;
  method: Method;
  c: Case;
  noKey?: boolean;
}

/** The corpus plus what every operation gets: HEAD for valid GETs, no-key requests, body-format variants, preflights. */
function expand(doc: any): Run[] {
  const runs: Run[] = [];
  for (const [op, o] of Object.entries(CORPUS)) {
    const cases = o.cases(fx.ids);
    for (const c of cases) runs.push({ op, method: o.method, c });
    // The event WebSocket's plain GET succeeds with its documented 426 (the upgrade is tested in test/events).
    const first = cases.find((c) => c.valid && (c.expect.includes(200) || c.expect.includes(426)));
    if (!first) continue;
    if (o.method === 'GET') {
      // Prism parses a JSON answer's body even for HEAD (none) and fails, so HEADs answered with JSON (errors too) are checked here directly.
      const json = operationOf(doc, op).responses['200']?.content?.['application/json'] !== undefined;
      for (const c of cases.filter((x) => !x.conditional)) {
        runs.push({
          op: `${op}Head`,
          method: 'HEAD',
          c: {
            ...c,
            name: `HEAD ${c.name}`,
            ...(json || c.expect.some((st) => st >= 400) ? { directOnly: 'Prism cannot read a bodiless JSON answer' } : {}),
          },
        });
      }
    }
    if (operationOf(doc, op).security === undefined)
      runs.push({ op, method: o.method, c: { ...first, name: `${first.name} without a key`, expect: [401] }, noKey: true });
    if (o.jsonBody) {
      const text = JSON.stringify(first.body);
      const variant = (name: string, raw: Case['raw'], status: number, directOnly?: string): Run => ({
        op,
        method: 'POST',
        c: { name, path: first.path, raw, valid: false, expect: [status], directOnly },
      });
      runs.push(
        variant('valid JSON sent as text/plain', { text, type: 'text/plain' }, 415),
        variant('valid JSON without Content-Type', { text, type: '' }, 415),
        variant('malformed JSON', { text: '{"a":', type: 'application/json' }, 400, 'Prism never answers an unparsable JSON body'),
        variant('JSON array', { text: '[]', type: 'application/json' }, 400),
        variant('JSON null', { text: 'null', type: 'application/json' }, 400),
        variant('no body', undefined, 400),
      );
    }
  }
  for (const [path, item] of Object.entries(doc.paths as Record<string, any>)) {
    const concrete = path.replace(/\{[^}]+\}/g, 'x');
    const headers = {
      origin: 'http://panel.example',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type, x-api-key',
    };
    runs.push({
      op: item.options?.operationId ?? `OPTIONS ${path} (undocumented)`,
      method: 'OPTIONS',
      c: { name: `preflight ${path}`, path: concrete, headers, valid: true, expect: [204] },
      noKey: true,
    });
  }
  return runs;
}

function operationOf(doc: any, operationId: string): any {
  for (const item of Object.values(doc.paths as Record<string, any>)) {
    for (const op of Object.values(item)) if ((op as any).operationId === operationId) return op;
  }
  throw new Error(`no operation ${operationId}`);
}

function caseBody(c: Case): { text: string; type: string } | undefined {
  if (c.raw) return c.raw;
  if (c.body !== undefined) return { text: JSON.stringify(c.body), type: 'application/json' };
  return undefined;
}

async function headersFor(run: Run): Promise<Record<string, string>> {
  const h: Record<string, string> = { ...(run.noKey ? {} : AUTH), ...(run.c.headers ?? {}) };
  if (run.c.conditional) {
    // A loaded machine may answer a documented 503 first; wait for an image (and its ETag) as that answer advises.
    let first = await send(fx.s.base, 'GET', run.c.path, AUTH);
    const deadline = Date.now() + 120_000;
    while (loadAnswer(first) !== null && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 1000));
      first = await send(fx.s.base, 'GET', run.c.path, AUTH);
    }
    const etag = first.headers.etag;
    assert.type(etag, 'string', `${run.c.name}: no ETag to revalidate with`);
    h['if-none-match'] = String(etag);
  }
  return h;
}

/** What Prism would check on an answer it cannot read: a declared status, and every declared header present and matching. */
function headerProblems(doc: any, operationId: string, r: Sent): string[] {
  let op: any;
  try {
    op = operationOf(doc, operationId);
  } catch {
    return [`operation ${operationId} is not documented`];
  }
  const res = op.responses[String(r.status)];
  if (res === undefined) return [`status ${r.status} is not declared`];
  if (r.body.byteLength !== 0) return ['HEAD answer has a body'];
  const out: string[] = [];
  for (const [name, h] of Object.entries((res.headers ?? {}) as Record<string, any>)) {
    const v = r.headers[name.toLowerCase()];
    if (v === undefined) {
      if (h.required) out.push(`required header ${name} missing`);
      continue;
    }
    const value = String(v);
    if (h.schema?.enum && !h.schema.enum.includes(value)) out.push(`header ${name}: ${value} not in ${h.schema.enum.join(', ')}`);
    if (h.schema?.pattern && !new RegExp(h.schema.pattern).test(value))
      out.push(`header ${name}: ${value} does not match ${h.schema.pattern}`);
  }
  return out;
}

function problem(r: Sent): { type?: string; detail?: string; validation?: unknown } | null {
  if (!String(r.headers['content-type'] ?? '').startsWith('application/problem+json')) return null;
  // A HEAD answer carries no body; the violation list is still in sl-violations.
  if (r.body.byteLength === 0) return { type: `(no body, status ${r.status})`, detail: String(r.headers['sl-violations'] ?? '') };
  return JSON.parse(r.body.toString('utf8'));
}

test('every documented operation has a corpus entry, and every entry a documented operation', () => {
  const doc = YAML.parse(fx.openapiYaml);
  const documented = new Set<string>();
  for (const item of Object.values(doc.paths as Record<string, any>)) {
    for (const [m, op] of Object.entries(item)) if (m === 'get' || m === 'post' || m === 'delete') documented.add((op as any).operationId);
  }
  assert.equal([...documented].sort(), Object.keys(CORPUS).sort());
});

test('Prism: no response violation, and its verdict on each request agrees with the server', async () => {
  const doc = YAML.parse(fx.openapiYaml);
  const runs = expand(doc);
  assert.ok(runs.length >= 300, `corpus has ${runs.length} requests`);
  const failures: string[] = [];
  const covered = new Set<string>();
  let refused = 0;
  let direct_ = 0;
  for (const run of runs) {
    const { c } = run;
    const label = `${run.method} ${c.path.length > 100 ? `${c.path.slice(0, 100)}…` : c.path} (${run.op}: ${c.name})`;
    if (process.env.VJD_CONTRACT_TRACE) console.log(label);
    const headers = await headersFor(run);
    const body = caseBody(c);
    if (c.directOnly !== undefined) {
      const direct = await send(fx.s.base, run.method, c.path, headers, body, c.endless === true);
      covered.add(run.op);
      direct_++;
      if (loadAnswer(direct) !== null && c.valid) continue;
      if (!c.expect.includes(direct.status))
        failures.push(`${label}: server answered ${direct.status}, corpus expects ${c.expect.join('/')}`);
      if (run.method === 'HEAD') failures.push(...headerProblems(doc, run.op, direct).map((m) => `${label}: ${m}`));
      continue;
    }
    const viaProxy = await send(proxy, run.method, c.path, headers, body);
    covered.add(run.op);
    const p = problem(viaProxy);
    const violations = viaProxy.headers['sl-violations'];
    if (violations !== undefined && String(violations).includes('"response"')) failures.push(`${label}: response violations ${violations}`);
    if (p?.type?.endsWith('#VIOLATIONS')) {
      failures.push(`${label}: response violation ${JSON.stringify(p.validation)}`);
      continue;
    }
    // Prism answers a request it refuses itself (422, or its own 4xx for an unreadable body); vjd never answers 422.
    const prismRefused = p !== null;
    if (prismRefused) {
      refused++;
      if (c.valid)
        failures.push(
          `${label}: Prism refused a request the corpus deems valid: ${viaProxy.status} ${p.type ?? ''} ${p.detail ?? ''} ${JSON.stringify(p.validation ?? '')}`,
        );
      const direct = await send(fx.s.base, run.method, c.path, headers, body);
      if (direct.status < 400 || direct.status >= 500) failures.push(`${label}: Prism refused it but the server answered ${direct.status}`);
      else if (!c.expect.includes(direct.status))
        failures.push(`${label}: server answered ${direct.status}, corpus expects ${c.expect.join('/')}`);
      continue;
    }
    const load = loadAnswer(viaProxy);
    if (load !== null && c.valid) {
      loadAnswers[load] = (loadAnswers[load] ?? 0) + 1;
      continue;
    }
    if (!c.valid) failures.push(`${label}: Prism forwarded a request the corpus deems invalid; server answered ${viaProxy.status}`);
    else if (!c.expect.includes(viaProxy.status))
      failures.push(
        `${label}: server answered ${viaProxy.status} ${viaProxy.body.toString('utf8').slice(0, 200)}, corpus expects ${c.expect.join('/')}`,
      );
    else if (viaProxy.status >= 400 && viaProxy.status < 500 && !c.expect.every((s) => s >= 400))
      failures.push(`${label}: valid request refused with ${viaProxy.status}`);
  }
  console.log(
    `contract: ${runs.length} requests (${direct_} checked against the server only), ${refused} refused by Prism, ${covered.size} operations; documented load answers: ${JSON.stringify(loadAnswers)}`,
  );
  if (failures.length > 0) console.error(failures.join('\n'));
  assert.is(failures.length, 0, `${failures.length} disagreements (listed above)`);
  // Every documented operation, HEAD and OPTIONS included, was exercised.
  for (const item of Object.values(doc.paths as Record<string, any>)) {
    for (const op of Object.values(item))
      assert.ok(covered.has((op as any).operationId), `operation ${(op as any).operationId} was not exercised`);
  }
});

test('images: the bytes the server sends are the format and type the description names', async () => {
  const cases = Object.entries(CORPUS)
    .flatMap(([, o]) => (o.method === 'GET' ? o.cases(fx.ids) : []))
    .filter((c) => c.valid && c.expect.includes(200) && /thumbnails\//.test(c.path) && !c.conditional && !c.headers);
  assert.ok(cases.length > 40);
  for (const c of cases) {
    const r = await send(fx.s.base, 'GET', c.path, AUTH);
    if (loadAnswer(r) !== null) continue;
    assert.is(r.status, 200, c.path);
    const type = String(r.headers['content-type']);
    const jpg = /format=jpg/.test(c.path);
    assert.is(type, jpg ? 'image/jpeg' : 'image/png', c.path);
    const magic = jpg ? [0xff, 0xd8, 0xff] : [0x89, 0x50, 0x4e, 0x47];
    assert.equal([...r.body.subarray(0, magic.length)], magic, `${c.path}: body is not ${type}`);
    assert.match(String(r.headers.etag), /^"(live|current|source|media|palette|layer|scene)-[0-9]+x[0-9]+-(png|jpg)-[^"]+"$/);
  }
});

test.run();
