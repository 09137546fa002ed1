// Protocol abuse on real sockets against a running vjd: slowloris, request smuggling, pipelining, dropped bodies, 10 000 idle connections.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { connect, type Socket } from 'node:net';
import { request as httpRequest } from 'node:http';
import { execFileSync } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startServer, req, waitUntil, sleep, RESULTS_DIR, type TestServer } from '../helpers/server.js';

let s: TestServer;
const API = '/api/v1';
const api = (p: string): string => `${s.base}${API}${p}`;
const results: Record<string, unknown> = {};
/** Every socket this file opens, so test.after can close what a failed test left behind. */
const opened = new Set<Socket>();

// Generous on purpose: a shared 2-core machine, a render worker at 30 fps and the attack itself in this process.
const P99_LIMIT_MS = 500;
const SLOW_CONNECTIONS = intEnv('VJD_SLOWLORIS_CONNECTIONS', 500);
const SLOW_INTERVAL_MS = 300;
const SLOW_DURATION_MS = 15_000;
const IDLE_TARGET = intEnv('VJD_IDLE_CONNECTIONS', 10_000);

function intEnv(name: string, fallback: number): number {
  const v = Number(process.env[name]);
  return Number.isSafeInteger(v) && v > 0 ? v : fallback;
}

// ---------------------------------------------------------------------------------------------------------------
// Helpers

interface Latency {
  requests: number;
  failures: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

function summarize(samples: number[], failures: number): Latency {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number): number => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!);
  const r = (x: number): number => Math.round(x * 100) / 100;
  return { requests: samples.length, failures, p50Ms: r(at(0.5)), p99Ms: r(at(0.99)), maxMs: r(sorted[sorted.length - 1] ?? NaN) };
}

/** The well-behaved control surface: GET /api/v1/status on a fresh connection; latency in ms, or null on failure. */
function goodGet(timeoutMs = 5000): Promise<number | null> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const r = httpRequest(api('/status'), { agent: false, timeout: timeoutMs }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode === 200 ? performance.now() - t0 : null));
      res.on('error', () => resolve(null));
    });
    r.on('timeout', () => r.destroy(new Error('timeout')));
    r.on('error', () => resolve(null));
    r.end();
  });
}

/** Runs the good client until `until()` is true (at least `min` requests); returns its latency figures. */
async function goodClient(until: () => boolean, min = 20): Promise<Latency> {
  const samples: number[] = [];
  let failures = 0;
  while (samples.length + failures < min || !until()) {
    const ms = await goodGet();
    if (ms === null) failures++;
    else samples.push(ms);
    await sleep(20);
  }
  return summarize(samples, failures);
}

interface Exchange {
  data: Buffer;
  closed: boolean;
}

/**
 * Writes bytes on a fresh connection and collects what comes back until the server closes, or maxMs passed, or
 * nothing new came for quietMs: counted from the last byte, or from the write; with `expect`, only once the bytes
 * hold what `expect` waits for (so a slow server is waited for, not taken for a silent one).
 */
function exchange(bytes: Buffer | string, quietMs = 600, maxMs = 5000, expect?: (data: Buffer) => boolean): Promise<Exchange> {
  return new Promise((resolve) => {
    const sock = connect(s.port, '127.0.0.1');
    opened.add(sock);
    const chunks: Buffer[] = [];
    let closed = false;
    let done = false;
    let quiet: NodeJS.Timeout | null = null;
    const finish = (): void => {
      if (done) return;
      done = true;
      clearTimeout(hard);
      if (quiet) clearTimeout(quiet);
      sock.destroy();
      opened.delete(sock);
      resolve({ data: Buffer.concat(chunks), closed });
    };
    const arm = (): void => {
      if (quiet) clearTimeout(quiet);
      if (expect && !expect(Buffer.concat(chunks))) return;
      quiet = setTimeout(finish, quietMs);
    };
    sock.on('connect', () => sock.write(bytes, arm));
    sock.on('data', (d: Buffer) => {
      chunks.push(d);
      arm();
    });
    sock.on('error', () => {});
    sock.on('close', () => {
      closed = true;
      finish();
    });
    const hard = setTimeout(finish, maxMs);
  });
}

interface Parsed {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** For `exchange`: true once `n` complete answers arrived. */
const answersAtLeast =
  (n: number, heads: boolean[] = []) =>
  (data: Buffer): boolean => {
    try {
      return parseAnswers(data, heads).answers.length >= n;
    } catch {
      return true; // not HTTP: nothing more to wait for; the test's own parse reports it
    }
  };

/** Splits an HTTP/1.1 byte stream into answers (Content-Length or chunked framing; HEAD answers have no body). */
function parseAnswers(buf: Buffer, heads: boolean[] = []): { answers: Parsed[]; rest: number } {
  const answers: Parsed[] = [];
  let pos = 0;
  for (;;) {
    const end = buf.indexOf('\r\n\r\n', pos);
    if (end < 0) break;
    const lines = buf.subarray(pos, end).toString('latin1').split('\r\n');
    const m = /^HTTP\/1\.1 (\d{3})/.exec(lines[0] ?? '');
    if (!m) throw new Error(`not an HTTP/1.1 answer: ${JSON.stringify(buf.subarray(pos, pos + 80).toString('latin1'))}`);
    const headers: Record<string, string> = {};
    for (const l of lines.slice(1)) {
      const i = l.indexOf(':');
      headers[l.slice(0, i).toLowerCase()] = l.slice(i + 1).trim();
    }
    const status = Number(m[1]);
    let p = end + 4;
    let body = '';
    if (status >= 200 && status !== 204 && status !== 304 && !heads[answers.length]) {
      if (headers['transfer-encoding'] === 'chunked') {
        for (;;) {
          const le = buf.indexOf('\r\n', p);
          if (le < 0) return { answers, rest: buf.length - pos };
          const size = parseInt(buf.subarray(p, le).toString('latin1'), 16);
          if (size === 0) {
            p = le + 4;
            break;
          }
          body += buf.subarray(le + 2, le + 2 + size).toString('utf8');
          p = le + 2 + size + 2;
        }
      } else {
        const n = Number(headers['content-length'] ?? 'NaN');
        if (!Number.isFinite(n)) throw new Error(`answer without Content-Length: ${lines[0]}`);
        if (buf.length < p + n) break;
        body = buf.subarray(p, p + n).toString('utf8');
        p += n;
      }
    }
    if (status >= 200) answers.push({ status, headers, body });
    pos = p;
  }
  return { answers, rest: buf.length - pos };
}

async function globalState(): Promise<{ blackout: boolean; dimmer: number }> {
  const r = await req('GET', api('/global'));
  assert.is(r.status, 200);
  return r.json();
}

async function resetGlobal(): Promise<void> {
  assert.is((await req('POST', api('/global/blackout'), { body: { enabled: false } })).status, 200);
  assert.is((await req('POST', api('/global/dimmer'), { body: { value: 1 } })).status, 200);
  assert.equal(await globalState(), { blackout: false, dimmer: 1 });
}

function openSocket(): Promise<Socket | null> {
  return new Promise((resolve) => {
    const sock = connect(s.port, '127.0.0.1');
    sock.on('connect', () => {
      opened.add(sock);
      resolve(sock);
    });
    sock.on('error', () => resolve(null));
  });
}

async function serverFds(): Promise<number> {
  return (await readdir(`/proc/${s.proc.pid}/fd`)).length;
}

async function fdLimit(pid: number | 'self'): Promise<number> {
  const text = await readFile(`/proc/${pid}/limits`, 'utf8');
  const m = /^Max open files\s+(\d+|unlimited)/m.exec(text);
  return m && m[1] !== 'unlimited' ? Number(m[1]) : Number.POSITIVE_INFINITY;
}

// ---------------------------------------------------------------------------------------------------------------
// Tests

test.before(async () => {
  s = await startServer({ config: { live: { test: [], streams: [], v4l2: { enabled: false } } } });
});

test.after(async () => {
  for (const sock of opened) sock.destroy();
  opened.clear();
  await s?.cleanup();
});

test('baseline: the good client before any abuse', async () => {
  const base = await goodClient(() => true, 100);
  console.log(
    `protocol baseline: GET /status p50 ${base.p50Ms} ms, p99 ${base.p99Ms} ms, max ${base.maxMs} ms (${base.requests} requests)`,
  );
  results.baseline = base;
  assert.is(base.failures, 0);
  assert.ok(base.p99Ms < P99_LIMIT_MS, `baseline p99 ${base.p99Ms} ms`);
});

test('slowloris: connections trickling header bytes do not starve the good client, and the server closes them', async () => {
  const head = `GET ${API}/status HTTP/1.1\r\nHost: localhost\r\nUser-Agent: slow\r\nX-Slow: `;
  let stopping = false;
  let closedByServer = 0;
  let answered = 0;
  let reconnects = 0;
  let firstGeneration = 0;
  let firstGenerationClosed = 0;
  const timers = new Set<NodeJS.Timeout>();

  // One attacker connection: one byte every ~300 ms, never finishing its header block; reopened when closed.
  const attack = (generation: number): void => {
    if (stopping) return;
    const sock = connect(s.port, '127.0.0.1');
    opened.add(sock);
    if (generation === 0) firstGeneration++;
    let i = 0;
    let timer: NodeJS.Timeout | null = null;
    const tick = (): void => {
      if (sock.destroyed) return;
      sock.write(i < head.length ? head[i]! : 'a');
      i++;
      timer = setTimeout(tick, SLOW_INTERVAL_MS * (0.8 + Math.random() * 0.4));
      timers.add(timer);
    };
    sock.on('connect', tick);
    sock.on('data', () => answered++);
    sock.on('error', () => {});
    sock.on('close', () => {
      if (timer) {
        clearTimeout(timer);
        timers.delete(timer);
      }
      opened.delete(sock);
      if (stopping) return;
      closedByServer++;
      if (generation === 0) firstGenerationClosed++;
      reconnects++;
      attack(generation + 1);
    });
  };

  for (let i = 0; i < SLOW_CONNECTIONS; i++) {
    attack(0);
    if (i % 100 === 99) await sleep(10);
  }
  const t0 = Date.now();
  const during = await goodClient(() => Date.now() - t0 >= SLOW_DURATION_MS);
  // uWS drops a connection that has not completed a request within its idle timeout (about 10 s), trickle or not:
  // waited for (the attack goes on meanwhile), not assumed to have happened within the measuring window.
  await waitUntil(() => firstGenerationClosed >= firstGeneration * 0.95, 30_000, 100).catch(() => undefined);
  const elapsed = Date.now() - t0;
  stopping = true;
  for (const t of timers) clearTimeout(t);
  for (const sock of [...opened]) {
    sock.destroy();
    opened.delete(sock);
  }
  console.log(
    `protocol slowloris: ${SLOW_CONNECTIONS} connections, 1 byte every ~${SLOW_INTERVAL_MS} ms for ${(elapsed / 1000).toFixed(1)} s; ` +
      `server closed ${closedByServer} (first generation ${firstGenerationClosed}/${firstGeneration}); ` +
      `good client p50 ${during.p50Ms} ms, p99 ${during.p99Ms} ms, max ${during.maxMs} ms over ${during.requests} requests, ${during.failures} failed`,
  );
  results.slowloris = {
    connections: SLOW_CONNECTIONS,
    byteIntervalMs: SLOW_INTERVAL_MS,
    durationMs: elapsed,
    closedByServer,
    reconnects,
    answeredToAttacker: answered,
    goodClient: during,
  };
  assert.is(during.failures, 0, 'every good request answered 200');
  assert.ok(during.requests >= 50, `the good client kept going (${during.requests} requests)`);
  assert.ok(during.p99Ms < P99_LIMIT_MS, `good client p99 ${during.p99Ms} ms under attack`);
  assert.is(answered, 0, 'an unfinished header block is never answered as a request');
  assert.ok(
    firstGenerationClosed >= firstGeneration * 0.95,
    `server closed ${firstGenerationClosed} of ${firstGeneration} trickling connections within ${elapsed} ms`,
  );
  assert.is((await req('GET', api('/status'))).status, 200);
});

// The smuggled request: if the server took it for a second request, blackout would be on afterwards.
const SMUGGLED = `POST ${API}/global/blackout HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 16\r\n\r\n{"enabled":true}`;
const OUTER = `POST ${API}/global/dimmer HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n`;
const chunkOf = (text: string): string => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n0\r\n\r\n`;
const afterZeroChunk = `0\r\n\r\n${SMUGGLED}`;

/** Each attempt: one reading of the framing ends the first body early and leaves SMUGGLED as a second request. */
const SMUGGLING: Array<[string, string]> = [
  [
    'CL.TE: Content-Length spans all, chunked ends at 0',
    `${OUTER}Content-Length: ${afterZeroChunk.length}\r\nTransfer-Encoding: chunked\r\n\r\n${afterZeroChunk}`,
  ],
  [
    'TE.CL: chunked spans all, Content-Length 4 ends early',
    `${OUTER}Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n${chunkOf(SMUGGLED)}`,
  ],
  ['TE.CL, Transfer-Encoding first', `${OUTER}Transfer-Encoding: chunked\r\nContent-Length: 4\r\n\r\n${chunkOf(SMUGGLED)}`],
  ['two Content-Length: 0 then full', `${OUTER}Content-Length: 0\r\nContent-Length: ${SMUGGLED.length}\r\n\r\n${SMUGGLED}`],
  ['two Content-Length: full then 0', `${OUTER}Content-Length: ${SMUGGLED.length}\r\nContent-Length: 0\r\n\r\n${SMUGGLED}`],
  ['two Content-Length, different case', `${OUTER}content-length: 0\r\nCONTENT-LENGTH: ${SMUGGLED.length}\r\n\r\n${SMUGGLED}`],
  ['Content-Length list "0, N"', `${OUTER}Content-Length: 0, ${SMUGGLED.length}\r\n\r\n${SMUGGLED}`],
  [
    'Transfer-Encoding: xchunked with Content-Length',
    `${OUTER}Content-Length: ${afterZeroChunk.length}\r\nTransfer-Encoding: xchunked\r\n\r\n${afterZeroChunk}`,
  ],
  ['Transfer-Encoding: xchunked alone', `${OUTER}Transfer-Encoding: xchunked\r\n\r\n${afterZeroChunk}`],
  [
    'Transfer-Encoding: " chunked" with Content-Length',
    `${OUTER}Content-Length: ${afterZeroChunk.length}\r\nTransfer-Encoding:  chunked\r\n\r\n${afterZeroChunk}`,
  ],
  [
    'Transfer-Encoding: tab chunked with Content-Length',
    `${OUTER}Content-Length: ${afterZeroChunk.length}\r\nTransfer-Encoding:\tchunked\r\n\r\n${afterZeroChunk}`,
  ],
  [
    '"Transfer-Encoding : chunked" (space before colon)',
    `${OUTER}Content-Length: ${afterZeroChunk.length}\r\nTransfer-Encoding : chunked\r\n\r\n${afterZeroChunk}`,
  ],
  [
    'Transfer-Encoding: CHUNKED with Content-Length',
    `${OUTER}Content-Length: ${afterZeroChunk.length}\r\nTransfer-Encoding: CHUNKED\r\n\r\n${afterZeroChunk}`,
  ],
  [
    'Transfer-Encoding: chunked, identity with Content-Length',
    `${OUTER}Content-Length: ${afterZeroChunk.length}\r\nTransfer-Encoding: chunked, identity\r\n\r\n${afterZeroChunk}`,
  ],
  [
    'two Transfer-Encoding (chunked, x) with Content-Length',
    `${OUTER}Content-Length: ${afterZeroChunk.length}\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: x\r\n\r\n${afterZeroChunk}`,
  ],
  [
    'two Transfer-Encoding (chunked, identity), no Content-Length',
    `${OUTER}Transfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n\r\n${afterZeroChunk}`,
  ],
  [
    'two Transfer-Encoding (identity, chunked), no Content-Length',
    `${OUTER}Transfer-Encoding: identity\r\nTransfer-Encoding: chunked\r\n\r\n${chunkOf(SMUGGLED)}`,
  ],
  [
    'Transfer-Encoding folded onto the next line',
    `${OUTER}Content-Length: ${afterZeroChunk.length}\r\nTransfer-Encoding:\r\n chunked\r\n\r\n${afterZeroChunk}`,
  ],
  ['Content-Length: +N', `${OUTER}Content-Length: +${SMUGGLED.length}\r\n\r\n${SMUGGLED}`],
  [
    'GET with a Content-Length body',
    `GET ${API}/global HTTP/1.1\r\nHost: localhost\r\nContent-Length: ${SMUGGLED.length}\r\n\r\n${SMUGGLED}`,
  ],
  [
    'unknown route with two Content-Length',
    `POST ${API}/nope HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\nContent-Length: ${SMUGGLED.length}\r\n\r\n${SMUGGLED}`,
  ],
  [
    'OPTIONS with two Content-Length',
    `OPTIONS ${API}/global HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\nContent-Length: ${SMUGGLED.length}\r\n\r\n${SMUGGLED}`,
  ],
];

test('request smuggling: conflicting or obfuscated framing is refused; the smuggled request never takes effect', async () => {
  await resetGlobal();
  // Control: a second request after a complete chunked body is ordinary pipelining and does take effect, so the
  // probe below would see a smuggled request that the server processed.
  const control = await exchange(`${OUTER}Transfer-Encoding: chunked\r\n\r\n${afterZeroChunk}`, 600, 15_000, answersAtLeast(2));
  const controlAnswers = parseAnswers(control.data).answers.map((a) => a.status);
  assert.equal(controlAnswers, [400, 200], 'control: empty chunked body refused, then the pipelined request answered');
  assert.is((await globalState()).blackout, true, 'control: the pipelined blackout took effect');
  await resetGlobal();

  const outcomes: Array<{ name: string; answers: number[]; closed: boolean }> = [];
  for (const [name, bytes] of SMUGGLING) {
    // Waits for an answer or a close (a few cases get neither: the server waits for bytes that never come), then
    // for a possible second answer, so a slow answer is never mistaken for none.
    const ex = await exchange(bytes, 600, 5000, answersAtLeast(1));
    const answers = parseAnswers(ex.data).answers.map((a) => a.status);
    outcomes.push({ name, answers, closed: ex.closed });
    const state = await globalState();
    assert.is(state.blackout, false, `${name}: the smuggled POST /global/blackout took effect (answers ${answers.join(', ') || 'none'})`);
    assert.is(state.dimmer, 1, `${name}: the outer request changed the dimmer`);
    assert.ok(answers.length <= 1, `${name}: ${answers.length} answers, so the smuggled bytes were read as a request`);
    assert.ok(
      answers.every((st) => (st >= 400 && st < 500) || st === 200),
      `${name}: answers ${answers.join(', ')}`,
    );
    if (answers[0] === 200) assert.ok(name.startsWith('GET'), `${name}: only the GET may succeed (its body is ignored)`);
    if (answers.length === 0) assert.ok(ex.closed || ex.data.length === 0, `${name}: refused`);
  }
  for (const o of outcomes)
    console.log(
      `protocol smuggling: ${o.name}: ${o.answers.length ? `answered ${o.answers.join(', ')}` : 'no answer'}${o.closed ? ', connection closed' : ', connection left open'}`,
    );
  results.smuggling = outcomes;
  assert.is((await req('GET', api('/status'))).status, 200);
});

test('pipelining: 10 GETs in one write get 10 answers in order; a request pipelined behind a mutation closes the connection', async () => {
  await resetGlobal();
  const paths = Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? `${API}/status` : `${API}/pipe-${i}`));
  const bytes = paths.map((p) => `GET ${p} HTTP/1.1\r\nHost: localhost\r\n\r\n`).join('');
  const ex = await exchange(bytes, 300, 15_000, answersAtLeast(10));
  const { answers, rest } = parseAnswers(ex.data);
  assert.is(answers.length, 10, `10 answers (got ${answers.length})`);
  assert.is(rest, 0, 'nothing after the tenth answer');
  answers.forEach((a, i) => {
    if (i % 2 === 0) {
      assert.is(a.status, 200, `answer ${i}`);
      assert.is(JSON.parse(a.body).name, 'vjd');
    } else {
      assert.is(a.status, 404, `answer ${i}`);
      assert.match(JSON.parse(a.body).message, `/api/v1/pipe-${i}`);
    }
  });

  const values = [0.1, 0.2, 0.3, 0.4, 0.5];
  const posts = values.map((v) => {
    const body = JSON.stringify({ value: v });
    return `POST ${API}/global/dimmer HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
  });
  // A mutation is answered only once it is on disk, so its answer is still pending when the next pipelined request
  // is parsed; uWebSockets.js does not read ahead of a pending answer and closes the connection instead. Only the
  // first POST can have been applied (unacknowledged, like any request cut off by the network); nothing after it.
  const ex2 = await exchange(`${posts.join('')}GET ${API}/global HTTP/1.1\r\nHost: localhost\r\n\r\n`, 300, 15_000, () => false);
  assert.ok(ex2.closed, 'the connection is closed');
  const a2 = parseAnswers(ex2.data).answers;
  assert.ok(a2.length <= 1 && a2.every((a) => a.status === 200), `at most the first POST is answered: ${a2.map((a) => a.status)}`);
  const after = (await globalState()).dimmer;
  assert.ok(after === 1 || after === 0.1, `only the first pipelined POST may apply (dimmer ${after})`);
  await resetGlobal();
  results.pipelining = { requests: 10, answers: answers.length, ordered: true, pipelinedPostsClosed: true };
  console.log(
    'protocol pipelining: 10 GETs in one write -> 10 ordered answers; pipelined POSTs close the connection, at most the first applies',
  );
});

test('HEAD answers carry no body, so a request pipelined after one is read correctly', async () => {
  await resetGlobal();
  const bytes = `HEAD ${API}/global HTTP/1.1\r\nHost: localhost\r\n\r\nHEAD ${API}/nope HTTP/1.1\r\nHost: localhost\r\n\r\nGET ${API}/global HTTP/1.1\r\nHost: localhost\r\n\r\n`;
  const ex = await exchange(bytes, 300, 15_000, answersAtLeast(3, [true, true, false]));
  const { answers, rest } = parseAnswers(ex.data, [true, true, false]);
  assert.equal(
    answers.map((a) => a.status),
    [200, 404, 200],
  );
  assert.equal(answers.map((a) => a.body.length).slice(0, 2), [0, 0]);
  assert.equal(JSON.parse(answers[2]!.body), { blackout: false, dimmer: 1 });
  assert.is(rest, 0);
});

test('declared body over 64 KiB: 413 before the body arrives, one Connection: close, connection closed', async () => {
  const ex = await exchange(
    `POST ${API}/global/dimmer HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"value":`,
    1000,
    15_000,
    answersAtLeast(1),
  );
  const { answers } = parseAnswers(ex.data);
  assert.is(answers.length, 1);
  assert.is(answers[0]!.status, 413);
  assert.is(JSON.parse(answers[0]!.body).code, 'PAYLOAD_TOO_LARGE');
  assert.is(answers[0]!.headers['connection'], 'close', 'exactly one Connection header');
  assert.ok(ex.closed, 'the server closed the connection');
});

test('connections dropped mid-body (200 times): server fine, state unchanged, nothing left in flight', async () => {
  await resetGlobal();
  const before = await globalState();
  const head = `POST ${API}/global/dimmer HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`;
  const partial = '{"value":0';
  assert.is(partial.length, 10);
  let dropped = 0;
  const dropOne = (): Promise<void> =>
    new Promise((resolve) => {
      const sock = connect(s.port, '127.0.0.1');
      opened.add(sock);
      sock.on('error', () => {});
      sock.on('close', () => {
        opened.delete(sock);
        resolve();
      });
      sock.on('connect', () =>
        sock.write(head + partial, () => {
          // Give the server the headers and the first bytes, then vanish.
          setTimeout(() => {
            dropped++;
            sock.destroy();
          }, 5);
        }),
      );
    });
  for (let i = 0; i < 200; i += 20) await Promise.all(Array.from({ length: 20 }, dropOne));
  assert.is(dropped, 200);
  assert.is((await req('GET', api('/status'))).status, 200);
  assert.equal(await globalState(), before);
  // A full request still works on a fresh connection afterwards.
  assert.is((await req('POST', api('/global/dimmer'), { body: { value: 0.5 } })).status, 200);
  assert.is((await globalState()).dimmer, 0.5);
  await resetGlobal();
  results.droppedBodies = { connections: 200, declaredBytes: 1000, sentBytes: 10 };
  console.log('protocol dropped bodies: 200 connections dropped after 10 of 1000 declared body bytes; state unchanged');
});

test('10 000 idle connections: the server holds them, the good client still gets answers, idle ones are closed', async () => {
  let shellLimit = Number.NaN;
  try {
    shellLimit = Number(execFileSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim());
  } catch {
    // no shell: /proc below still tells
  }
  const mine = await fdLimit('self');
  const theirs = await fdLimit(s.proc.pid!);
  const limit = Math.min(mine, theirs, Number.isFinite(shellLimit) ? shellLimit : Number.POSITIVE_INFINITY);
  // Both ends hold one descriptor per connection; keep room for the server's own files, workers and the good client.
  const target = Math.max(100, Math.min(IDLE_TARGET, limit - 512));
  console.log(
    `protocol idle: fd limit ${limit} (ulimit -n ${shellLimit}, this process ${mine}, server ${theirs}); opening ${target} idle connections${target < IDLE_TARGET ? ` (fewer than ${IDLE_TARGET}: limited by the fd limit)` : ''}`,
  );
  const fdsBefore = await serverFds();

  const idle: Socket[] = [];
  let closedByServer = 0;
  let failedToOpen = 0;
  let stopping = false;
  const t0 = Date.now();
  for (let i = 0; i < target; i += 500) {
    const batch = await Promise.all(Array.from({ length: Math.min(500, target - i) }, openSocket));
    for (const sock of batch) {
      if (!sock) {
        failedToOpen++;
        continue;
      }
      sock.on('error', () => {});
      sock.on('close', () => {
        opened.delete(sock);
        if (!stopping) closedByServer++;
      });
      idle.push(sock);
    }
  }
  const openMs = Date.now() - t0;
  // The server accepted them: its descriptor count rose by about one per connection.
  let fdsHeld = 0;
  await waitUntil(async () => (fdsHeld = (await serverFds()) - fdsBefore) >= idle.length * 0.95 - closedByServer, 30_000, 50).catch(
    () => {},
  );
  const openAtStart = idle.length - closedByServer;
  const during = await goodClient(() => true, 100);
  const openAtEnd = idle.length - closedByServer;
  console.log(
    `protocol idle: ${idle.length} opened in ${openMs} ms (${failedToOpen} failed), server holds +${fdsHeld} fds; ` +
      `${openAtStart} open when the good client started, ${openAtEnd} at its end; good client p50 ${during.p50Ms} ms, p99 ${during.p99Ms} ms, max ${during.maxMs} ms`,
  );
  assert.ok(idle.length >= target * 0.98, `opened ${idle.length} of ${target}`);
  assert.ok(fdsHeld >= openAtStart * 0.9, `server holds ${fdsHeld} more fds with ${openAtStart} connections open`);
  assert.ok(openAtEnd >= idle.length * 0.5, `the good client measured while most idle connections were open (${openAtEnd})`);
  assert.is(during.failures, 0);
  assert.ok(during.p99Ms < P99_LIMIT_MS, `good client p99 ${during.p99Ms} ms with ${openAtStart} idle connections`);

  // uWS closes connections that never send a request (idle timeout about 10 s): idle sockets cannot pin descriptors.
  const tClose = Date.now();
  await waitUntil(() => closedByServer >= idle.length * 0.99, 60_000, 100).catch(() => {});
  const closeMs = Date.now() - t0;
  console.log(`protocol idle: server closed ${closedByServer} of ${idle.length} idle connections within ${closeMs} ms of opening them`);
  assert.ok(
    closedByServer >= idle.length * 0.99,
    `server closed ${closedByServer} of ${idle.length} idle connections (waited ${Date.now() - tClose} ms)`,
  );
  stopping = true;
  for (const sock of idle) {
    sock.destroy();
    opened.delete(sock);
  }
  await waitUntil(async () => (await serverFds()) <= fdsBefore + 50, 30_000, 100);
  assert.is((await req('GET', api('/status'))).status, 200);
  results.idle = {
    fdLimit: Number.isFinite(limit) ? limit : null,
    target,
    opened: idle.length,
    openMs,
    serverFdsHeld: fdsHeld,
    openWhileMeasuring: { start: openAtStart, end: openAtEnd },
    goodClient: during,
    closedByServer,
    closedWithinMs: closeMs,
  };
});

test('shutdown after the abuse: nothing left in flight, clean exit; figures written to the results dir (protocol.json)', async () => {
  for (const sock of opened) sock.destroy();
  opened.clear();
  assert.is((await req('GET', api('/status'))).status, 200);
  const code = await s.stop('SIGTERM');
  const line = s
    .logs()
    .split('\n')
    .find((l) => l.includes('"shutting down"'));
  assert.ok(line, 'shutdown logged');
  assert.is(JSON.parse(line!).inFlight, 0, 'aborted and refused requests left no in-flight count behind');
  assert.is(code, 0);
  const dir = RESULTS_DIR;
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'protocol.json'), `${JSON.stringify({ p99LimitMs: P99_LIMIT_MS, ...results }, null, 2)}\n`);
});

test.run();
