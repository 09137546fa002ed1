// Tests for the SAB frame ring: seqlock, newest-wins, a writer that never waits, overwrite detection, content rect.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Worker } from 'node:worker_threads';
import { FrameRingReader, FrameRingWriter, createFrameRing, frameBytes, ringGeometry } from '../../src/shared/frame-ring.js';

function writeFrame(w: FrameRingWriter, width: number, height: number, value: number, nowMs?: number): number {
  w.begin(width, height).fill(value);
  return w.commit(nowMs);
}

test('geometry, and nothing to read before the first commit', () => {
  const sab = createFrameRing(64, 36);
  const g = ringGeometry(sab);
  assert.equal([g.maxWidth, g.maxHeight, g.slots], [64, 36, 3]);
  assert.ok(sab.byteLength >= g.dataOffset + 3 * 64 * 36 * 4);
  const r = new FrameRingReader(sab);
  assert.is(r.acquire(), null);
  assert.is(r.frameCount(), 0);
  assert.is(r.lastFrameTimeMs(), 0);
  assert.throws(() => createFrameRing(64, 36, 2), /at least 3 slots/);
  assert.throws(() => new FrameRingReader(new SharedArrayBuffer(1024)), /not a frame ring/);
});

test('an I420 ring: its layout in the header, frames of 1.5 bytes a pixel, even sizes only', () => {
  const sab = createFrameRing(64, 36, 3, 'i420');
  const g = ringGeometry(sab);
  assert.is(g.layout, 'i420');
  assert.is(frameBytes('i420', 64, 36), 64 * 36 * 1.5);
  const w = new FrameRingWriter(sab);
  assert.is(w.begin(32, 18).byteLength, 32 * 18 * 1.5);
  w.commit();
  const f = new FrameRingReader(sab).acquire()!;
  assert.equal([f.width, f.height, f.pixels.byteLength], [32, 18, 32 * 18 * 1.5]);
  assert.throws(() => w.begin(31, 18), /even sizes/);
  assert.throws(() => createFrameRing(63, 36, 3, 'i420'), /even sizes/);
  assert.is(ringGeometry(createFrameRing(8, 8)).layout, 'rgba');
});

test('a run that ended leaves its frames readable but not current until the next run commits', () => {
  const sab = createFrameRing(8, 8);
  const w = new FrameRingWriter(sab);
  const r = new FrameRingReader(sab);
  assert.not.ok(r.currentRun(), 'no frame yet');
  writeFrame(w, 8, 8, 1);
  assert.ok(r.currentRun());
  w.endRun();
  assert.not.ok(r.currentRun(), 'the newest frame belongs to the ended run');
  assert.is(r.acquire()?.frameNo, 1, 'its frame is still readable');
  r.release();
  writeFrame(w, 8, 8, 2);
  assert.ok(r.currentRun());
});

test('records the content rectangle of a letterboxed frame', () => {
  const sab = createFrameRing(1280, 720);
  const w = new FrameRingWriter(sab);
  const view = w.begin(960, 720);
  assert.is(view.byteLength, 960 * 720 * 4);
  view.fill(7);
  assert.is(w.commit(), 1);
  const r = new FrameRingReader(sab);
  const f = r.acquire()!;
  assert.equal([f.width, f.height, f.pixels.byteLength], [960, 720, 960 * 720 * 4]);
  assert.is(f.pixels[960 * 720 * 4 - 1], 7);
  assert.ok(r.release());
  assert.throws(() => w.begin(1282, 720), /does not fit/);
});

test('an uncommitted frame is invisible (seqlock): the reader keeps the last committed one', () => {
  const sab = createFrameRing(8, 8);
  const w = new FrameRingWriter(sab);
  const r = new FrameRingReader(sab);
  w.begin(8, 8).fill(1);
  assert.is(r.acquire(), null, 'begin alone publishes nothing');
  w.commit();
  w.begin(4, 4).fill(2);
  const f = r.acquire()!;
  assert.equal([f.frameNo, f.width, f.pixels[0]], [1, 8, 1]);
  assert.ok(r.release());
  w.commit();
  const g = r.acquire()!;
  assert.equal([g.frameNo, g.width, g.pixels[0]], [2, 4, 2]);
  r.release();
});

test('newest frame wins, with its number and commit time', () => {
  const sab = createFrameRing(16, 16);
  const w = new FrameRingWriter(sab);
  const r = new FrameRingReader(sab);
  const t = 1_763_000_000_123; // past 2^32 ms: exercises the split time
  for (let i = 1; i <= 10; i++) writeFrame(w, 16, 16, i, t + i);
  const f = r.acquire()!;
  assert.equal([f.frameNo, f.pixels[0], f.timeMs], [10, 10, t + 10]);
  assert.is(r.frameCount(), 10);
  assert.is(r.lastFrameTimeMs(), t + 10);
  assert.ok(r.release());
  assert.not.ok(r.release(), 'a second release has nothing to release');
});

test('the writer never waits: it writes around a held frame, which stays intact', () => {
  const sab = createFrameRing(16, 16);
  const w = new FrameRingWriter(sab);
  const r = new FrameRingReader(sab);
  writeFrame(w, 16, 16, 1);
  const held = r.acquire()!;
  for (let i = 2; i <= 100; i++) writeFrame(w, 16, 16, i & 255);
  assert.ok(
    held.pixels.every((b) => b === 1),
    'held pixels untouched',
  );
  assert.ok(r.release(), 'release reports an intact frame');
  const f = r.acquire()!;
  assert.is(f.frameNo, 100);
  r.release();
});

test('a held frame the writer had to overwrite is reported by release()', () => {
  // Two readers holding two slots of a 3-slot ring leave the writer no free slot: it overwrites rather than wait.
  const sab = createFrameRing(4, 4);
  const w = new FrameRingWriter(sab);
  const r1 = new FrameRingReader(sab);
  const r2 = new FrameRingReader(sab);
  writeFrame(w, 4, 4, 1);
  assert.is(r1.acquire()!.frameNo, 1);
  writeFrame(w, 4, 4, 2);
  assert.is(r2.acquire()!.frameNo, 2);
  for (let i = 3; i <= 6; i++) writeFrame(w, 4, 4, i);
  assert.not.ok(r1.release() && r2.release(), 'one of the held frames was overwritten and it was noticed');
  // With one more slot both holders are protected.
  const sab4 = createFrameRing(4, 4, 4);
  const w4 = new FrameRingWriter(sab4);
  const a = new FrameRingReader(sab4);
  const b = new FrameRingReader(sab4);
  writeFrame(w4, 4, 4, 1);
  a.acquire();
  writeFrame(w4, 4, 4, 2);
  b.acquire();
  for (let i = 3; i <= 20; i++) writeFrame(w4, 4, 4, i);
  assert.ok(a.release());
  assert.ok(b.release());
});

test('cross-thread: a worker writes flat frames as fast as it can, the reader never keeps a torn one', async () => {
  const sab = createFrameRing(320, 180);
  const control = new Int32Array(new SharedArrayBuffer(8)); // [0] done flag, [1] frames written
  const ringUrl = new URL('../../src/shared/frame-ring.js', import.meta.url).href;
  const FRAMES = 1500;
  const code = `
    const { workerData } = require('node:worker_threads');
    import(workerData.ringUrl).then(({ FrameRingWriter }) => {
      const w = new FrameRingWriter(workerData.sab);
      const control = new Int32Array(workerData.control);
      for (let i = 1; i <= workerData.frames; i++) {
        // Alternating sizes also exercise the content rectangle under contention.
        const width = i % 2 ? 320 : 240;
        w.begin(width, 180).fill(i & 255);
        w.commit();
        Atomics.store(control, 1, i);
      }
      Atomics.store(control, 0, 1);
    });`;
  const worker = new Worker(code, { eval: true, workerData: { sab, control: control.buffer, ringUrl, frames: FRAMES } });
  const exited = new Promise<number>((resolve) => worker.once('exit', resolve));
  const r = new FrameRingReader(sab);
  let reads = 0;
  let kept = 0;
  let torn = 0;
  let lastNo = 0;
  const deadline = Date.now() + 60_000;
  while (Atomics.load(control, 0) === 0 && Date.now() < deadline) {
    const f = r.acquire();
    if (!f) continue;
    reads++;
    const expect = f.frameNo & 255;
    const width = f.frameNo % 2 ? 320 : 240;
    let flat = f.width === width && f.height === 180 && f.pixels.byteLength === width * 180 * 4;
    for (let i = 0; flat && i < f.pixels.length; i += 997) flat = f.pixels[i] === expect;
    flat = flat && f.pixels[f.pixels.length - 1] === expect;
    const no = f.frameNo;
    if (r.release()) {
      kept++;
      if (!flat) torn++;
      assert.ok(no >= lastNo, 'frame numbers never go back');
      lastNo = no;
    }
  }
  // Hold the newest frame while the worker could write more: it has already finished without waiting for us.
  assert.is(await exited, 0);
  assert.is(Atomics.load(control, 1), FRAMES);
  assert.is(torn, 0, `torn frames kept: ${torn}`);
  assert.ok(reads > 0 && kept > 0, `reads ${reads}, kept ${kept}`);
  if (process.env.VJD_TEST_VERBOSE) console.log({ reads, kept, torn });
  const last = r.acquire()!;
  assert.is(last.frameNo, FRAMES);
  assert.ok(r.release());
});

test('cross-thread: the writer finishes while the reader holds a frame the whole time', async () => {
  const sab = createFrameRing(64, 64);
  const w = new FrameRingWriter(sab);
  writeFrame(w, 64, 64, 9);
  const r = new FrameRingReader(sab);
  const held = r.acquire()!;
  const ringUrl = new URL('../../src/shared/frame-ring.js', import.meta.url).href;
  const code = `
    const { workerData, parentPort } = require('node:worker_threads');
    import(workerData.ringUrl).then(({ FrameRingWriter }) => {
      const w = new FrameRingWriter(workerData.sab);
      for (let i = 0; i < 500; i++) { w.begin(64, 64).fill(i & 255); w.commit(); }
      parentPort.postMessage('done');
    });`;
  const worker = new Worker(code, { eval: true, workerData: { sab, ringUrl } });
  await new Promise((resolve) => worker.once('message', resolve));
  await worker.terminate();
  assert.ok(held.pixels.every((b) => b === 9));
  assert.ok(r.release());
  assert.is(r.frameCount(), 501);
});

test('the down flag: set by the writer when its source dies, cleared by the next commit, frames kept', () => {
  const sab = createFrameRing(8, 8);
  const w = new FrameRingWriter(sab);
  const r = new FrameRingReader(sab);
  assert.not.ok(r.down());
  writeFrame(w, 8, 8, 1);
  w.setDown();
  assert.ok(r.down());
  assert.is(r.frameCount(), 1, 'the last frame stays readable');
  writeFrame(w, 8, 8, 2);
  assert.not.ok(r.down());
});

test.run();
