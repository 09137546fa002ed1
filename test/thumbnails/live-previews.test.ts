// Live preview feeds: opened on the first thumbnail request for an input that is not current, reused while
// requests keep coming, closed after the quiet period, never opened for the current input.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LivePreviews } from '../../src/thumbnails/live-previews.js';
import { createFrameRing, FrameRingWriter } from '../../src/shared/frame-ring.js';
import type { IngestClient } from '../../src/inputs/ingest-client.js';
import type { LiveInput } from '../../src/inputs/providers.js';

const quiet = { info() {}, warn() {}, error() {}, debug() {} } as never;
const input: LiveInput = { id: 'cam', name: 'Cam', provider: 'test', input: { kind: 'lavfi', pattern: 'testsrc2' }, available: true };

function fakeIngest() {
  const opened: Array<{ key: string; preview: boolean | undefined }> = [];
  const closed: string[] = [];
  const ring = createFrameRing(64, 48);
  const ingest = {
    open: async (key: string, _input: unknown, opts: { preview?: boolean }) => {
      opened.push({ key, preview: opts.preview });
      return ring;
    },
    close: (key: string) => closed.push(key),
  } as unknown as IngestClient;
  return { ingest, opened, closed, ring };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

test('opens a preview feed on first use, reports frames, closes after the quiet period', async () => {
  const f = fakeIngest();
  const p = new LivePreviews(f.ingest, () => null, quiet, 200);
  const first = p.frame(input);
  assert.is(first.ring, null, 'still opening: the caller shows a placeholder');
  assert.equal(f.opened, [{ key: 'preview:cam', preview: true }]);
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
  assert.equal(f.closed, ['preview:cam']);
  assert.is(p.open(), 0);
  // The last seen size survives the close, so a placeholder keeps the input's aspect.
  assert.equal(p.frame(input).size, { width: 40, height: 30 });
  p.stop();
});

test('the current input is read from its own ring; an open preview of it is closed', async () => {
  const f = fakeIngest();
  const own = createFrameRing(32, 32);
  let current: SharedArrayBuffer | null = null;
  const p = new LivePreviews(f.ingest, () => current, quiet, 10_000);
  p.frame(input);
  await tick();
  current = own;
  const info = p.frame(input);
  assert.is(info.ring, own);
  assert.equal(f.closed, ['preview:cam']);
  p.stop();
});

test('retain() closes previews of inputs that disappeared; stop() closes all', async () => {
  const f = fakeIngest();
  const p = new LivePreviews(f.ingest, () => null, quiet, 10_000);
  p.frame(input);
  p.frame({ ...input, id: 'other' });
  p.retain(new Set(['other']));
  assert.equal(f.closed, ['preview:cam']);
  p.stop();
  assert.equal(f.closed, ['preview:cam', 'preview:other']);
});

test.run();
