// Live previews over the reader pool: a preview holds the input's one reader from the first request until the
// quiet period, shares it with the program in either order (one open, one ring), and a reader leaving the program
// keeps serving the preview.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LivePreviews } from '../../src/thumbnails/live-previews.js';
import { ReaderPool } from '../../src/inputs/reader-pool.js';
import { createFrameRing, FrameRingWriter } from '../../src/shared/frame-ring.js';
import type { IngestClient } from '../../src/workers/ingest-client.js';
import type { LiveInput } from '../../src/inputs/providers.js';

const quiet = { info() {}, warn() {}, error() {}, debug() {} } as never;
const input: LiveInput = { id: 'cam', name: 'Cam', provider: 'test', input: { kind: 'lavfi', pattern: 'testsrc2' }, available: true };

function fakeIngest() {
  const opened: string[] = [];
  const closed: string[] = [];
  const ring = createFrameRing(64, 48);
  const ingest = {
    open: async (key: string) => {
      opened.push(key);
      return ring;
    },
    close: (key: string) => closed.push(key),
    state: () => 'live',
  } as unknown as IngestClient;
  return { pool: new ReaderPool(ingest, quiet), opened, closed, ring };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

test('opens the reader on first use, reports frames, releases it after the quiet period', async () => {
  const f = fakeIngest();
  const p = new LivePreviews(f.pool, 200);
  const first = p.frame(input);
  assert.is(first.ring, null, 'still opening: the caller shows a placeholder');
  assert.equal(f.opened, ['live:cam']);
  await tick();
  const w = new FrameRingWriter(f.ring);
  w.begin(40, 30);
  w.commit();
  const second = p.frame(input);
  assert.is(second.ring, f.ring);
  assert.is(second.frameCount, 1);
  assert.equal(second.size, { width: 40, height: 30 });
  assert.is(f.opened.length, 1, 'reused, not reopened');
  assert.is(p.open(), 1);
  await new Promise((r) => setTimeout(r, 700));
  assert.equal(f.closed, ['live:cam']);
  assert.is(p.open(), 0);
  // The last seen size survives the close, so a placeholder keeps the input's aspect.
  assert.equal(p.frame(input).size, { width: 40, height: 30 });
  p.stop();
});

test('program first: the preview reads the program reader; it is not counted as preview-only', async () => {
  const f = fakeIngest();
  const p = new LivePreviews(f.pool, 10_000);
  const ring = await f.pool.acquire('live:cam', input.input, true, 'program');
  assert.is(p.frame(input).ring, ring);
  assert.equal(f.opened, ['live:cam'], 'one reader');
  assert.is(p.open(), 0);
  // Leaving the program: the reader stays for the preview, no close and no reopen.
  f.pool.release('live:cam', 'program');
  assert.equal(f.closed, []);
  assert.is(p.frame(input).ring, ring);
  assert.is(p.open(), 1);
  p.stop();
  assert.equal(f.closed, ['live:cam']);
});

test('preview first: the program joins the same reader; the quiet period does not close it while on the output', async () => {
  const f = fakeIngest();
  const p = new LivePreviews(f.pool, 200);
  p.frame(input);
  await tick();
  const ring = await f.pool.acquire('live:cam', input.input, true, 'program');
  assert.is(ring, f.ring);
  assert.equal(f.opened, ['live:cam'], 'one reader');
  await new Promise((r) => setTimeout(r, 700));
  assert.equal(f.closed, [], 'the preview role went quiet; the program still holds the reader');
  f.pool.release('live:cam', 'program');
  assert.equal(f.closed, ['live:cam']);
  p.stop();
});

test('retain() releases previews of inputs that disappeared; stop() releases all', async () => {
  const f = fakeIngest();
  const p = new LivePreviews(f.pool, 10_000);
  p.frame(input);
  p.frame({ ...input, id: 'other' });
  p.retain(new Set(['other']));
  assert.equal(f.closed, ['live:cam']);
  p.stop();
  assert.equal(f.closed, ['live:cam', 'live:other']);
});

test.run();
