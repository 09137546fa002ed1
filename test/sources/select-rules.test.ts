// Select rules over real HTTP: 504 ACTIVATION_TIMEOUT never before the full 5000 ms budget (the previous source
// keeps driving the output), and a select of the current source while it delivers no frames restarts its reader
// at once instead of answering 200 over the no-signal card.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { startServer, req, freePort, sleep, waitUntil, type TestServer, sampleOutput } from '../helpers/server.js';
import { near } from '../helpers/images.js';

let s: TestServer;
let pullPort = 0;
let deadPort = 0;
const api = (p: string): string => `${s.base}/api/v1${p}`;
const get = async (p: string) => (await req('GET', api(p), { timeoutMs: 15000 })).json();
const post = (p: string, body: unknown) => req('POST', api(p), { body, timeoutMs: 20000 });
const RED: [number, number, number] = [255, 0, 0];
const BLUE: [number, number, number] = [0, 0, 255];

const sample = async (): Promise<number[]> => (await sampleOutput(s.base))[0]!;

function noSignal(px: number[]): boolean {
  const [r, g, b] = px as [number, number, number];
  return Math.max(r, g, b) - Math.min(r, g, b) <= 12 && r >= 35 && r <= 110;
}

/** Whether something listens on 127.0.0.1:port (read from /proc, so the one-client server is not used up by a probe). */
async function listening(port: number): Promise<boolean> {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  const table = await readFile('/proc/net/tcp', 'utf8');
  return table.split('\n').some((l) => {
    const f = l.trim().split(/\s+/);
    return f[1] === `0100007F:${hex}` && f[3] === '0A';
  });
}

/** A stream server the `puller` input connects to: one client, red frames. */
async function startStreamServer(): Promise<ChildProcess> {
  const p = spawn(
    'ffmpeg',
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-re',
      '-f',
      'lavfi',
      '-i',
      'color=c=red:s=320x240:r=25',
      '-f',
      'mpegts',
      `tcp://127.0.0.1:${pullPort}?listen`,
    ],
    { stdio: 'ignore' },
  );
  await waitUntil(() => listening(pullPort), 15000, 50);
  return p;
}

const exitsOfPuller = (): number =>
  s
    .logs()
    .split('\n')
    .filter((l) => l.includes('"msg":"ffmpeg exited"') && l.includes('"source":"live:puller"')).length;

test.before(async () => {
  pullPort = await freePort();
  deadPort = await freePort();
  s = await startServer({
    config: {
      live: {
        test: [{ id: 'blue', name: 'Blue Test', pattern: 'color=c=blue:size=320x240:rate=30' }],
        streams: [
          { id: 'puller', name: 'Puller', url: `tcp://127.0.0.1:${pullPort}` },
          { id: 'nobody', name: 'Nobody Sends', url: `tcp://127.0.0.1:${deadPort}?listen` },
        ],
        v4l2: { enabled: false },
      },
    },
  });
});

test.after(async () => {
  await s?.cleanup();
});

test('504 ACTIVATION_TIMEOUT comes no sooner than 5000 ms after the request was sent; the previous source stays', async () => {
  assert.is((await post('/inputs/live/select', { id: 'blue' })).status, 200);
  assert.ok(near(await sample(), BLUE));
  const sent = Date.now();
  const r = await post('/inputs/live/select', { id: 'nobody' });
  const took = Date.now() - sent;
  assert.is(r.status, 504, r.text);
  const b = r.json();
  assert.is(b.code, 'ACTIVATION_TIMEOUT');
  assert.is(b.details.timeoutMs, 5000);
  assert.ok(took >= 5000, `answered ${took} ms after the request was sent`);
  assert.ok(near(await sample(), BLUE), 'blue still on the output');
  assert.is((await get('/sources/current')).id, 'blue');
});

test('a repeated select that joins a pending activation also hears of its failure no sooner than 5000 ms after it was sent', async () => {
  const firstSent = Date.now();
  const first = post('/inputs/live/select', { id: 'nobody' });
  await sleep(500);
  const secondSent = Date.now();
  const second = await post('/inputs/live/select', { name: 'Nobody Sends' });
  const secondTook = Date.now() - secondSent;
  const a = await first;
  assert.equal([a.status, second.status], [504, 504]);
  assert.ok(Date.now() - firstSent >= 5000);
  assert.ok(secondTook >= 5000, `the joining request answered ${secondTook} ms after it was sent`);
  assert.is((await get('/sources/current')).id, 'blue');
});

test('a select of the current input while it delivers nothing restarts it: 504 while it stays dead, 200 with frames once it can', async () => {
  let server = await startStreamServer();
  try {
    const first = await post('/inputs/live/select', { id: 'puller' });
    assert.is(first.status, 200, first.text);
    assert.ok(near(await sample(), RED));
    server.kill('SIGKILL');
    await waitUntil(async () => noSignal(await sample()), 15000, 200);

    // Nothing to connect to: the reader is restarted and retried within the budget, then 504; it stays current.
    const sent = Date.now();
    const exitsBefore = exitsOfPuller();
    const dead = await post('/inputs/live/select', { id: 'puller' });
    assert.is(dead.status, 504, dead.text);
    assert.is(dead.json().code, 'ACTIVATION_TIMEOUT');
    assert.ok(Date.now() - sent >= 5000);
    assert.is((await get('/sources/current')).id, 'puller', 'it is still the current source');
    assert.ok(noSignal(await sample()), 'the no-signal card stays on the output');

    // Let the backoff grow (1, 2, 4 s, then 8 s between tries): only a restart connects soon after this.
    await waitUntil(() => exitsOfPuller() - exitsBefore >= 4, 30000, 50);
    server = await startStreamServer();
    const back = await post('/inputs/live/select', { id: 'puller' });
    assert.is(back.status, 200, back.text);
    assert.equal(back.json().current, { id: 'puller', name: 'Puller', sourceKind: 'live', type: 'live' });
    const px = await sample();
    assert.ok(near(px, RED), `the answer came after its first frame reached the output (got ${px})`);
  } finally {
    server.kill('SIGKILL');
  }
});

test.run();
