// test-lane: alone (counts frames against the wall clock)
// True time on outputs while the render is slowed (the slow-frames hook) and an encoder falls behind (its ffmpeg
// is suspended for a few seconds, so its pipe fills and slots are dropped): a recording lasts its wall time within
// 1 % (ffprobe), and a UDP stream's timestamps advance with the wall clock within 1 % (PES timestamps read off
// the datagrams as they arrive).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { startServer, req, sleep, waitUntil, type TestServer } from '../helpers/server.js';
import { childPids } from '../hardening/faults-common.js';
import { freeUdpPort, run } from './media.js';
import { ptsDrift, ptsReceiver } from './true-time-media.js';

const FPS = 30;
const RUN_MS = 20_000;
/** The render sleeps this long per frame: far below the outputs' rate, so slots repeat frames. */
const SLOW_MS = 90;
const STOPPED_MS = 3000;

let server: TestServer;
const api = (p: string): string => `${server.base}/api/v1${p}`;
const post = (p: string, body: unknown) => req('POST', api(p), { body });
const output = async (id: string) =>
  ((await req('GET', api('/outputs'))).json().items as Array<Record<string, any>>).find((o) => o.id === id)!;

test.before(async () => {
  server = await startServer({
    config: {
      live: { test: [{ id: 'bars', name: 'Bars', pattern: 'testsrc2=size=320x180:rate=30' }], streams: [], v4l2: { enabled: false } },
      outputs: [{ id: 'rec', kind: 'record', enabled: false, width: 320, height: 180, fps: FPS }],
    },
  });
  assert.is((await post('/sources/select', { id: 'bars' })).status, 200);
});

test.after(async () => {
  await server?.cleanup();
});

/** Suspends the output ffmpeg whose command line holds `needle` for a while: it takes no frames meanwhile. */
async function stall(needle: string): Promise<void> {
  let pids: number[] = [];
  await waitUntil(async () => (pids = await childPids(server.proc.pid!, needle)).length === 1, 20000);
  process.kill(pids[0]!, 'SIGSTOP');
  try {
    await sleep(STOPPED_MS);
  } finally {
    process.kill(pids[0]!, 'SIGCONT');
  }
}

/** Slowed rendering for the length of a test, back to full speed after it. */
async function slowed<T>(body: () => Promise<T>): Promise<T> {
  assert.is((await post('/_test/slow-frames', { ms: SLOW_MS, frames: 10_000 })).status, 200);
  try {
    return await body();
  } finally {
    await post('/_test/slow-frames', { ms: 1, frames: 1 });
  }
}

test('a recording made with slowed rendering and a stalled encoder lasts its wall time within 1 %', async () => {
  const { o, sentAt, answeredAt, startedAt } = await slowed(async () => {
    assert.is((await post('/outputs/enabled', { id: 'rec', enabled: true })).status, 200);
    let startedAt = NaN;
    await waitUntil(async () => Number.isFinite((startedAt = Date.parse((await output('rec')).startedAt ?? ''))), 20000);
    await sleep(3000);
    // The encoder (the recording's own, or the one it shares): its pipe fills and slots are dropped meanwhile.
    await stall('-muxdelay');
    await sleep(Math.max(0, startedAt + RUN_MS - Date.now()));
    const sentAt = Date.now();
    const off = await post('/outputs/enabled', { id: 'rec', enabled: false });
    const answeredAt = Date.now();
    assert.is(off.status, 200);
    await waitUntil(async () => (await output('rec')).state === 'stopped', 20000);
    return { o: await output('rec'), sentAt, answeredAt, startedAt };
  });
  const r = await run('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'format=duration',
    '-of',
    'json',
    join(server.dataDir, 'recordings', o.target),
  ]);
  assert.is(r.code, 0, r.stderr);
  const duration = Number((JSON.parse(r.stdout) as { format: { duration: string } }).format.duration);
  // The file runs from its ffmpeg's start (startedAt) to the stop, which took effect between the request and
  // its answer; each end gets the 1 % tolerance.
  const lo = ((sentAt - startedAt) / 1000) * 0.99;
  const hi = ((answeredAt - startedAt) / 1000) * 1.01;
  const counts = `sent ${o.framesSent}, dropped ${o.framesDropped}, repeated ${o.framesRepeated}`;
  assert.ok(o.framesDropped > 0, `the stalled encoder made slots drop (${counts})`);
  assert.ok(o.framesRepeated > 0, `the slowed render made slots repeat (${counts})`);
  assert.ok(
    duration >= lo && duration <= hi,
    `duration ${duration} s vs wall ${(sentAt - startedAt) / 1000}-${(answeredAt - startedAt) / 1000} s (${counts})`,
  );
});

test("a UDP stream's timestamps track the wall clock within 1 % over slowed rendering and a stalled encoder", async () => {
  const port = await freeUdpPort();
  const { frames, socket } = await ptsReceiver(port);
  try {
    await slowed(async () => {
      const url = `udp://127.0.0.1:${port}?pkt_size=1316`;
      const added = await post('/outputs/add', { kind: 'stream', name: 'lan', url, width: 320, height: 180, fps: FPS });
      assert.is(added.status, 200, added.text);
      const id = added.json().current.id as string;
      await waitUntil(() => frames.length > 0, 20000);
      const first = performance.now();
      await sleep(3000);
      // The stream's encoder is the shared one, which writes MPEG-TS to the remuxer that holds the URL: stall
      // the encoder (the remuxer alone falling behind skips chunks and drops no slot).
      await stall('-muxdelay');
      await waitUntil(() => performance.now() - first >= RUN_MS, RUN_MS + 20000, 200);
      const o = await output(id);
      assert.ok(o.framesDropped > 0 && o.framesRepeated > 0, `drops and repeats (${JSON.stringify(o)})`);
      assert.is((await post('/outputs/remove', { id })).status, 200);
    });
  } finally {
    socket.close();
  }
  const { drift, overMs } = ptsDrift(frames);
  assert.ok(overMs > RUN_MS / 2, `measured over ${overMs} ms`);
  assert.ok(Math.abs(drift) < 0.01, `drift ${(drift * 100).toFixed(2)} % over ${Math.round(overMs)} ms (${frames.length} frames)`);
});

test('a recording that shares a stream’s encoder and stops while that encoder lags still lasts its wall time within 1 %', async () => {
  const port = await freeUdpPort();
  const url = `udp://127.0.0.1:${port}?pkt_size=1316`;
  const added = await post('/outputs/add', { kind: 'stream', name: 'beside', url, width: 320, height: 180, fps: FPS });
  assert.is(added.status, 200, added.text);
  const stream = added.json().current.id as string;
  await waitUntil(async () => (await output(stream)).state === 'running', 20000);
  assert.is((await post('/outputs/enabled', { id: 'rec', enabled: true })).status, 200);
  let startedAt = NaN;
  await waitUntil(async () => Number.isFinite((startedAt = Date.parse((await output('rec')).startedAt ?? ''))), 20000);
  const together = async (): Promise<boolean> =>
    ((await req('GET', api('/status'))).json().outputs.encoders as Array<{ outputs: string[] }>).some(
      (e) => e.outputs.includes('rec') && e.outputs.includes(stream),
    );
  await waitUntil(together, 20000);
  await sleep(Math.max(0, startedAt + 10_000 - Date.now()));
  // The shared encoder stops taking frames a second before the stop and until well after it: the recording must
  // wait for the encode to reach the stop instead of ending where the encoder happened to be.
  let pids: number[] = [];
  await waitUntil(async () => (pids = await childPids(server.proc.pid!, '-muxdelay')).length === 1, 20000);
  process.kill(pids[0]!, 'SIGSTOP');
  let sentAt = 0;
  let off: ReturnType<typeof post>;
  try {
    await sleep(1000);
    sentAt = Date.now();
    off = post('/outputs/enabled', { id: 'rec', enabled: false });
    await sleep(1500);
  } finally {
    process.kill(pids[0]!, 'SIGCONT');
  }
  assert.is((await off!).status, 200);
  const answeredAt = Date.now();
  await waitUntil(async () => (await output('rec')).state === 'stopped', 20000);
  const o = await output('rec');
  const r = await run('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'format=duration',
    '-of',
    'csv=p=0',
    join(server.dataDir, 'recordings', o.target),
  ]);
  const duration = Number(r.stdout);
  const lo = ((sentAt - startedAt) / 1000) * 0.99;
  const hi = ((answeredAt - startedAt) / 1000) * 1.01;
  assert.ok(
    duration >= lo && duration <= hi,
    `duration ${duration} s vs wall ${(sentAt - startedAt) / 1000}-${(answeredAt - startedAt) / 1000} s`,
  );
  assert.is((await post('/outputs/remove', { id: stream })).status, 200);
});

test.run();
