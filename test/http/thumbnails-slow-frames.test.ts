// test-lane: alone (reads readback budgets against slowed frames)
// Previews get render time when frames run long: with every frame slowed to 200 ms (test hook; a heavy chain or a
// starved CPU) there is no idle time after a frame, yet live and current thumbnails, 32 px included, answer 200
// within their 500 ms readback budget instead of 503 PREVIEW_TIMEOUT. And no preview pays for a shader compile:
// the downscalers are compiled and drawn once while the worker starts.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, req, waitUntil, type Res, type TestServer } from '../helpers/server.js';

let s: TestServer;
const api = (p: string): string => `${s.base}/api/v1${p}`;
const status = async (): Promise<any> => (await req('GET', api('/status'), { timeoutMs: 15000 })).json();
const get = (p: string): Promise<Res> => req('GET', api(p), { timeoutMs: 15000 });
/** A live thumbnail of a real frame (a placeholder card's ETag digest starts with p). */
const realFrame = (r: Res): boolean => r.status === 200 && /^"live-\d+x\d+-png-f/.test(String(r.headers.etag ?? ''));
const SLOW_MS = 200;

test.before(async () => {
  s = await startServer({
    config: {
      live: { test: [{ id: 'red', name: 'Red Test', pattern: 'color=c=red:size=320x180:rate=30' }], streams: [], v4l2: { enabled: false } },
    },
  });
  const sel = await req('POST', api('/inputs/live/select'), { body: { id: 'red' }, timeoutMs: 15000 });
  assert.is(sel.status, 200, sel.text);
  await waitUntil(async () => realFrame(await get('/thumbnails/live/red?size=48')), 20000, 100);
});

test.after(async () => {
  await s?.cleanup();
});

test('previews of every size compile nothing: the GL program count stays where start-up left it', async () => {
  const programs = async (): Promise<number> => (await status()).render.gl.programs;
  const before = await programs();
  // 320×180 output and input: 32..512 px reach every tap count a one-pass downscale of them uses (1 to 5).
  for (const size of [512, 200, 100, 64, 40, 32]) {
    for (const p of [`/thumbnails/live/red?size=${size}`, `/thumbnails/current?size=${size}&format=jpg`]) {
      const r = await get(p);
      assert.is(r.status, 200, `${p}: ${r.text}`);
    }
  }
  // Stats arrive every 250 ms: wait for one sent after the last preview.
  const frames = (await status()).render.frames;
  await waitUntil(async () => (await status()).render.frames > frames, 10000, 100);
  assert.is(await programs(), before, 'no program was compiled for a preview');
});

test('every frame slowed to 200 ms: concurrent live and current previews (32 px first) still answer 200, none times out', async () => {
  const before = (await status()).thumbnails.timeouts;
  assert.is((await req('POST', api('/_test/slow-frames'), { body: { ms: SLOW_MS, frames: 10_000 } })).status, 200);
  // Wait until the slow frames show: each one skips the frame slots it overran, so drops grow with frames.
  const start = (await status()).render;
  await waitUntil(
    async () => {
      const r = (await status()).render;
      return r.frames - start.frames >= 10 && r.droppedFrames - start.droppedFrames >= r.frames - start.frames;
    },
    30000,
    200,
  );
  const mark = (await status()).render;
  const markAt = Date.now();

  const times: number[] = [];
  // Eight at once (the queue runs four; the rest start as those finish), a size or subject of their own so nothing
  // is shared or cached: each request is a readback of its own.
  for (let round = 0; round < 3; round++) {
    const paths = Array.from({ length: 8 }, (_, i) => {
      const size = round === 0 && i < 2 ? 32 : 33 + round * 8 + i;
      return i % 2 === 0 ? `/thumbnails/live/red?size=${size}` : `/thumbnails/current?size=${size}`;
    });
    const rs = await Promise.all(
      paths.map(async (p) => {
        const t0 = performance.now();
        const r = await get(p);
        times.push(Math.round(performance.now() - t0));
        return { p, r };
      }),
    );
    for (const { p, r } of rs) {
      assert.is(r.status, 200, `${p} with ${SLOW_MS} ms frames: ${r.status} ${r.text}`);
      assert.is(r.headers['content-type'], 'image/png');
      if (p.includes('/live/')) assert.ok(realFrame(r), `${p} drew a real frame, not a placeholder: ${String(r.headers.etag)}`);
    }
  }
  const after = await status();
  const spanS = (Date.now() - markAt) / 1000;
  // The frames were slow the whole time: every frame in this window overran its slot.
  const frames = after.render.frames - mark.frames;
  const skipped = after.render.droppedFrames - mark.droppedFrames;
  assert.ok(skipped >= frames, `frames were slowed: ${JSON.stringify(after.render)}`);
  // And the loop kept its clock while serving the previews: every slot is a frame or a counted skip, none queued
  // (stats are sent every 250 ms, later while a frame sleeps: up to ~0.5 s old at either end).
  const slots = spanS * after.render.targetFps;
  assert.ok(
    Math.abs(frames + skipped - slots) <= slots * 0.1 + after.render.targetFps,
    `${frames} frames + ${skipped} skipped of ${slots.toFixed(0)} slots in ${spanS.toFixed(1)} s`,
  );
  assert.is(after.thumbnails.timeouts - before, 0, 'no readback timed out');
  console.log(
    `slow frames (${SLOW_MS} ms, ${after.render.fps} fps; ${frames} frames + ${skipped} skipped of ${slots.toFixed(0)} slots): 24 previews answered 200; latency ms ${times.sort((a, b) => a - b).join(',')}`,
  );
  assert.is((await req('POST', api('/_test/slow-frames'), { body: { ms: 1, frames: 1 } })).status, 200);
});

test.run();
