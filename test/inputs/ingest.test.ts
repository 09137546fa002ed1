// Tests for the ingest worker through IngestClient with real ffmpeg processes: frames, states, watchdog, cleanup.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { IngestClient } from '../../src/workers/ingest-client.js';
import { FrameRingReader } from '../../src/shared/frame-ring.js';
import type { IngestState } from '../../src/shared/protocol/ingest.js';

/** Pids and command names of this process's children, from /proc/<pid>/stat (field 4 is the parent pid). */
async function children(): Promise<Array<{ pid: number; comm: string; state: string }>> {
  const out: Array<{ pid: number; comm: string; state: string }> = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = await readFile(`/proc/${name}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const [state, ppid] = stat.slice(close + 2).split(' ');
      if (Number(ppid) === process.pid) out.push({ pid: Number(name), comm: stat.slice(stat.indexOf('(') + 1, close), state: state! });
    } catch {
      // exited while we looked
    }
  }
  return out;
}

async function procState(pid: number): Promise<string> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]!;
  } catch {
    return 'gone';
  }
}

/** ffmpeg children of this process (zombies included: unreaped is leaked) other than the given ones (the test's own senders), sorted. */
async function ffmpegChildren(exclude: number[]): Promise<number[]> {
  return (await children())
    .filter((c) => (c.comm === 'ffmpeg' || c.comm === 'setpriv') && !exclude.includes(c.pid))
    .map((c) => c.pid)
    .sort((x, y) => x - y);
}

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(25);
  }
}

const INIT = { maxWidth: 160, maxHeight: 90, fps: 10, ffmpeg: 'ffmpeg' };
const verbose = !!process.env.VJD_TEST_VERBOSE;
let client: IngestClient;
let dir = '';
const events: Array<{ key: string; state: IngestState; message: string | undefined; at: number }> = [];
const senders = new Set<ChildProcess>();

test.before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vjd-ingest-'));
  client = new IngestClient(INIT);
  client.on('state', (key, state, message) => {
    events.push({ key, state, message, at: Date.now() });
    if (verbose) console.log(key, state, message ?? '');
  });
});

test.after(async () => {
  for (const s of senders) s.kill('SIGKILL');
  await client.stop();
  await rm(dir, { recursive: true, force: true });
});

function statesOf(key: string): IngestState[] {
  return events.filter((e) => e.key === key).map((e) => e.state);
}

async function waitState(
  key: string,
  state: IngestState,
  timeoutMs = 10_000,
  since = 0,
): Promise<{ message: string | undefined; at: number }> {
  let found: (typeof events)[number] | undefined;
  await waitFor(
    () => (found = events.find((e) => e.key === key && e.state === state && e.at >= since)) !== undefined,
    timeoutMs,
    `${key} → ${state}`,
  );
  return found!;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function sender(color: string, url: string): ChildProcess {
  const args = ['-v', 'error', '-nostdin', '-re', '-f', 'lavfi', '-i', `color=c=${color}:size=320x180:rate=10`, '-f', 'mpegts', url];
  const child = spawn('ffmpeg', args, { stdio: 'ignore' });
  senders.add(child);
  child.once('exit', () => senders.delete(child));
  return child;
}

async function killSender(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await gone;
}

function pixel(ring: SharedArrayBuffer): { width: number; height: number; rgba: number[]; frameNo: number } {
  const r = new FrameRingReader(ring);
  const f = r.acquire();
  assert.ok(f, 'a frame is in the ring');
  const center = ((f.height >> 1) * f.width + (f.width >> 1)) * 4;
  const out = { width: f.width, height: f.height, rgba: [...f.pixels.subarray(center, center + 4)], frameNo: f.frameNo };
  r.release();
  return out;
}

function near(actual: number[], expected: number[], tolerance = 12): boolean {
  return actual.every((v, i) => Math.abs(v - expected[i]!) <= tolerance);
}

test('lavfi color=c=red fills the ring with red frames', async () => {
  const t0 = Date.now();
  const ring = await client.open('red', { kind: 'lavfi', pattern: 'color=c=red:size=320x180' }, { live: true });
  const live = await waitState('red', 'live');
  if (verbose) console.log(`lavfi open → first frame: ${live.at - t0} ms (includes the worker start)`);
  const p = pixel(ring);
  assert.equal([p.width, p.height], [160, 90]);
  assert.ok(near(p.rgba, [255, 0, 0, 255]), `red, got ${p.rgba}`);
  assert.equal(statesOf('red').slice(0, 2), ['connecting', 'live']);
  client.close('red');
  await waitState('red', 'closed');
  assert.is(client.state('red'), undefined);
});

test('a 4:3 source in a 16:9 box records its 120×90 content rectangle', async () => {
  const t0 = Date.now();
  const ring = await client.open('four-three', { kind: 'lavfi', pattern: 'testsrc2=size=320x240' }, { live: true });
  const live = await waitState('four-three', 'live');
  if (verbose) console.log(`lavfi open → first frame (warm worker): ${live.at - t0} ms`);
  const p = pixel(ring);
  assert.equal([p.width, p.height], [120, 90]);
  client.close('four-three');
  await waitState('four-three', 'closed');
});

test('tcp listener: frames from a sender, then retrying and connecting again when the sender goes', async () => {
  const port = await freePort();
  const ring = await client.open('tcp', { kind: 'url', url: `tcp://127.0.0.1:${port}?listen` }, { live: true });
  await waitState('tcp', 'connecting');
  // The listener needs a moment to bind; a sender that came too early is simply started again.
  let send: ChildProcess | null = null;
  let sentAt = 0;
  await waitFor(
    async () => {
      if (client.state('tcp') === 'live') return true;
      if (!send || send.exitCode !== null) {
        await sleep(200);
        sentAt = Date.now();
        send = sender('blue', `tcp://127.0.0.1:${port}`);
      }
      return false;
    },
    15_000,
    'tcp live',
  );
  const live = await waitState('tcp', 'live');
  if (verbose) console.log(`tcp sender start → first frame: ${live.at - sentAt} ms`);
  const p = pixel(ring);
  assert.equal([p.width, p.height], [160, 90]);
  assert.ok(near(p.rgba, [0, 0, 255, 255], 16), `blue, got ${p.rgba}`);
  const killedAt = Date.now();
  await killSender(send!);
  await waitState('tcp', 'retrying', 10_000, killedAt);
  await waitState('tcp', 'connecting', 10_000, killedAt);
  const after = statesOf('tcp');
  assert.equal(after.slice(after.lastIndexOf('retrying')), ['retrying', 'connecting']);
  client.close('tcp');
  await waitState('tcp', 'closed');
});

test('udp input without a sender stays connecting', async () => {
  const port = await freePort();
  const ring = await client.open('udp-idle', { kind: 'url', url: `udp://127.0.0.1:${port}` }, { live: true });
  await waitState('udp-idle', 'connecting');
  await sleep(3000);
  assert.equal(statesOf('udp-idle'), ['connecting']);
  assert.is(new FrameRingReader(ring).frameCount(), 0);
  client.close('udp-idle');
  await waitState('udp-idle', 'closed');
});

test('udp input whose sender stops: the watchdog kills it after ~2000 ms (stalled → retrying)', async () => {
  const port = await freePort();
  const ring = await client.open('udp', { kind: 'url', url: `udp://127.0.0.1:${port}` }, { live: true });
  await waitState('udp', 'connecting');
  await sleep(300);
  const send = sender('green', `udp://127.0.0.1:${port}?pkt_size=1316`);
  await waitState('udp', 'live', 15_000);
  await sleep(500);
  await killSender(send);
  const stalled = await waitState('udp', 'stalled', 10_000);
  const lastFrame = new FrameRingReader(ring).lastFrameTimeMs();
  const quiet = stalled.at - lastFrame;
  if (verbose) console.log(`udp: last frame → stalled: ${quiet} ms`);
  assert.ok(quiet >= 1900 && quiet < 6000, `stalled ${quiet} ms after the last frame`);
  assert.match(stalled.message ?? '', /no frames for 2000 ms/);
  const retrying = await waitState('udp', 'retrying', 5000, stalled.at);
  await waitState('udp', 'connecting', 10_000, retrying.at);
  client.close('udp');
  await waitState('udp', 'closed');
});

test('a bad lavfi pattern reports the ffmpeg error text', async () => {
  await client.open('bad', { kind: 'lavfi', pattern: 'nosuchsource' }, { live: true });
  const r = await waitState('bad', 'retrying');
  assert.match(r.message ?? '', /No such filter: 'nosuchsource'/);
  assert.match(client.status('bad')?.message ?? '', /nosuchsource/);
  client.close('bad');
  await waitState('bad', 'closed');
});

test('a media file that cannot be opened is retried with growing backoff until closed; its ring is marked down', async () => {
  const ring = await client.open('missing', { kind: 'file', path: join(dir, 'missing.mp4'), still: false }, { live: false });
  const first = await waitState('missing', 'retrying');
  assert.match(first.message ?? '', /No such file or directory/);
  assert.ok(new FrameRingReader(ring).down(), 'readers know the source is down');
  await waitFor(() => statesOf('missing').filter((s) => s === 'retrying').length >= 3, 15_000, 'three failed runs');
  const tries = events.filter((e) => e.key === 'missing' && e.state === 'connecting').map((e) => e.at);
  const fails = events.filter((e) => e.key === 'missing' && e.state === 'retrying').map((e) => e.at);
  // 1000 ms, then 2000 ms between a failure and the next run (with room for late messages).
  assert.ok(tries[1]! - fails[0]! >= 750, `first retry ${tries[1]! - fails[0]!} ms after the failure`);
  assert.ok(tries[2]! - fails[1]! >= 1500, `second retry ${tries[2]! - fails[1]!} ms after the failure`);
  assert.not.ok(statesOf('missing').includes('failed'), 'an open source never gives up');
  client.close('missing');
  await waitState('missing', 'closed');
  assert.equal(await ffmpegChildren([...senders].map((s) => s.pid!)), []);
});

test('restart() starts a waiting source at once instead of after its backoff', async () => {
  await client.open('gone', { kind: 'file', path: join(dir, 'gone.mp4'), still: false }, { live: false });
  await waitFor(() => statesOf('gone').filter((s) => s === 'retrying').length >= 3, 15_000, 'three failed runs');
  const third = events.filter((e) => e.key === 'gone' && e.state === 'retrying')[2]!.at;
  // The next run is due 4000 ms after the third failure; a restart starts it now.
  client.restart('gone');
  const again = await waitState('gone', 'connecting', 10_000, third + 1);
  assert.ok(again.at < third + 4000, `restarted ${again.at - third} ms after the failure, before its backoff ran out`);
  assert.is(statesOf('gone').filter((s) => s === 'connecting').length, 4, 'one new run');
  client.close('gone');
  await waitState('gone', 'closed');
});

test('a still image gives one frame and stays', async () => {
  const still = join(dir, 'still.png');
  await new Promise<void>((resolve, reject) => {
    const p = spawn('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=yellow:size=64x48', '-frames:v', '1', still]);
    p.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg exited ${code}`))));
  });
  const ring = await client.open('still', { kind: 'file', path: still, still: true }, { live: false });
  await waitState('still', 'live');
  const reader = new FrameRingReader(ring);
  await waitFor(async () => (await ffmpegChildren([])).length === 0, 5000, 'still decoder exits');
  await sleep(1000);
  assert.is(reader.frameCount(), 1);
  assert.is(client.state('still'), 'live');
  const p = pixel(ring);
  assert.equal([p.width, p.height], [120, 90]);
  assert.ok(near(p.rgba, [255, 255, 0, 255]), `yellow, got ${p.rgba}`);
  client.close('still');
  await waitState('still', 'closed');
});

test('reopening a key with the same input keeps its process; close and stop leave no ffmpeg behind', async () => {
  const own = () => ffmpegChildren([...senders].map((s) => s.pid!));
  assert.equal(await own(), []);
  await client.open('a', { kind: 'lavfi', pattern: 'color=c=white:size=32x18' }, { live: true });
  await client.open('b', { kind: 'lavfi', pattern: 'testsrc2=size=64x36' }, { live: true });
  await waitState('a', 'live');
  await waitState('b', 'live');
  const before = await own();
  assert.is(before.length, 2);
  await client.open('a', { kind: 'lavfi', pattern: 'color=c=white:size=32x18' }, { live: true });
  await sleep(300);
  assert.equal(await own(), before, 'same processes after reopening');
  client.close('a');
  await waitState('a', 'closed');
  await waitFor(async () => (await own()).length === 1, 5000, 'one ffmpeg after close');
  await client.stop();
  assert.equal(await own(), [], 'no ffmpeg after stop');
  assert.equal(statesOf('b').at(-1), 'live', 'stop ends quietly');
});

test('an open the worker dies before answering is answered by the restarted worker, on frames of its input', async () => {
  const other = new IngestClient(INIT);
  try {
    const opening = other.open('y', { kind: 'lavfi', pattern: 'color=c=blue:size=32x18' }, { live: true });
    // The thread is still starting: the open is queued to it and dies with it unanswered.
    assert.ok(other.killWorker(), 'a worker was running');
    const ring = await opening;
    await waitFor(() => new FrameRingReader(ring).frameCount() > 0, 20_000, 'frames on the ring of the answered open');
    const px = pixel(ring).rgba;
    assert.ok(px[2]! > 200 && px[0]! < 50, `blue frames, got ${px}`);
  } finally {
    await other.stop();
  }
});

test('a worker that dies takes its ffmpeg children with it (parent-death signal)', async () => {
  const other = new IngestClient(INIT);
  await other.open('x', { kind: 'lavfi', pattern: 'color=c=red:size=32x18' }, { live: true });
  await waitFor(() => other.state('x') === 'live', 10_000, 'x live');
  const pids = await ffmpegChildren([...senders].map((s) => s.pid!));
  assert.is(pids.length, 1);
  // What a crash of the thread looks like from outside: no stop message, no chance to clean up.
  const internals = other as unknown as { worker: { terminate(): Promise<number> }; onProcessExit: () => void };
  internals.onProcessExit = () => {}; // leave the kernel's parent-death signal as the only thing that can kill it
  await internals.worker.terminate();
  // Dead, though a zombie: only the thread that spawned a child reaps it, and that thread is gone.
  await waitFor(async () => ['Z', 'gone'].includes(await procState(pids[0]!)), 5000, 'ffmpeg dead with its worker');
  await other.stop();
});

test.run();
