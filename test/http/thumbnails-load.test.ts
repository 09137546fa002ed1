// test-lane: alone (loads the box itself)
// Thumbnail load: 200 concurrent clients hammer the thumbnail routes. The queue must refuse work with 503
// THUMBNAIL_QUEUE_FULL (Retry-After) instead of growing, recover after the burst (rejecting until depth ≤ 16,
// then admitting again), keep memory bounded, keep the render loop's clock during the burst and its frame rate
// after it. The frame rate during the burst is reported, not bounded: on a shared 2-core machine the burst's
// own encoding and HTTP work take CPU from the render thread whatever the thumbnail scheduling does.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { startServer, req, waitUntil, type TestServer } from '../helpers/server.js';
import { DocumentedAnswers, retryDocumented } from '../helpers/documented.js';

let s: TestServer;
const api = (p: string): string => `${s.base}/api/v1${p}`;
const status = async (): Promise<any> => (await req('GET', api('/status'))).json();

async function rssKb(pid: number): Promise<number> {
  const text = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(text)?.[1] ?? NaN);
}

test.before(async () => {
  s = await startServer({
    config: {
      live: {
        test: [{ id: 'bars', name: 'Color Bars', pattern: 'smptehdbars=size=640x360:rate=30' }],
        streams: [],
        v4l2: { enabled: false },
      },
    },
  });
  assert.is((await req('POST', api('/sources/select'), { body: { id: 'source:plasma' } })).status, 200);
});

test.after(async () => {
  await s?.cleanup();
});

test('200 concurrent clients: 503 THUMBNAIL_QUEUE_FULL with Retry-After, recovery, bounded memory, render clock kept, frame rate back', async () => {
  // Warmed up: two seconds' worth of frames rendered (a count, not a rate).
  await waitUntil(async () => (await status()).render.frames >= 60, 30000);
  const fpsBefore: number[] = [];
  for (let i = 0; i < 4; i++) {
    fpsBefore.push((await status()).render.fps);
    await new Promise((r) => setTimeout(r, 300));
  }
  const baseFps = fpsBefore.reduce((a, b) => a + b) / fpsBefore.length;
  const rssBefore = await rssKb(s.proc.pid!);

  const agent = new Agent({ keepAlive: true, maxSockets: 200 });
  const counts = new Map<string, number>();
  let badBodies = 0;
  let retryAfterMissing = 0;
  const deadline = Date.now() + 6000;
  const fpsDuring: number[] = [];
  const depths: number[] = [];
  const clockStart = (await status()).render;
  const clockT0 = Date.now();
  const sampler = (async () => {
    while (Date.now() < deadline) {
      const st = await status();
      fpsDuring.push(st.render.fps);
      depths.push(st.thumbnails.queue.depth);
      await new Promise((r) => setTimeout(r, 250));
    }
  })();
  const one = (path: string): Promise<void> =>
    new Promise((resolve) => {
      const r = request(`${s.base}${path}`, { agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          let key = String(res.statusCode);
          if (res.statusCode !== 200) {
            try {
              const b = JSON.parse(Buffer.concat(chunks).toString());
              key += ` ${b.code}`;
              if (b.error !== true || typeof b.message !== 'string') badBodies++;
              if (b.code === 'THUMBNAIL_QUEUE_FULL' && res.headers['retry-after'] !== '1') retryAfterMissing++;
            } catch {
              badBodies++;
            }
          }
          counts.set(key, (counts.get(key) ?? 0) + 1);
          resolve();
        });
      });
      r.on('error', () => {
        counts.set('socket error', (counts.get('socket error') ?? 0) + 1);
        resolve();
      });
      r.end();
    });
  // Waves of 200 simultaneous requests (one per client) for distinct sizes and formats of the moving output and
  // of generators: every request in a wave is new work, as when a wall of panels refreshes at once.
  let wave = 0;
  while (Date.now() < deadline) {
    const offset = (wave * 97) % 481;
    await Promise.all(
      Array.from({ length: 200 }, (_, n) => {
        const size = 32 + ((offset + n * 7) % 481);
        const format = n % 2 ? 'jpg' : 'png';
        const subject = n % 4 === 3 ? `source/${['source:rings', 'source:plasma', 'source:tunnel'][wave % 3]}` : 'current';
        return one(`/api/v1/thumbnails/${subject}?size=${size}&format=${format}`);
      }),
    );
    wave++;
  }
  await sampler;
  agent.destroy();
  const clockEnd = (await status()).render;
  const clockSpanS = (Date.now() - clockT0) / 1000;

  const summary = { ...Object.fromEntries(counts), queue: (await status()).thumbnails.queue };
  const documented = ['503 THUMBNAIL_QUEUE_FULL', '503 PREVIEW_TIMEOUT'].map((k) => `${k} ×${counts.get(k) ?? 0}`).join(', ');
  console.log(
    'thumbnail burst:',
    JSON.stringify(summary),
    `documented answers: ${documented};`,
    'max depth',
    Math.max(...depths),
    'fps before',
    baseFps.toFixed(1),
    'during',
    fpsDuring.join(','),
  );
  assert.ok((counts.get('503 THUMBNAIL_QUEUE_FULL') ?? 0) > 0, 'the queue refused work');
  assert.ok((counts.get('200') ?? 0) > 0, 'work was done');
  for (const key of counts.keys())
    assert.ok(['200', '503 THUMBNAIL_QUEUE_FULL', '503 PREVIEW_TIMEOUT'].includes(key), `unexpected answer ${key}`);
  assert.is(badBodies, 0);
  assert.is(retryAfterMissing, 0);
  assert.ok(Math.max(...depths) <= 32, 'depth never above 32');

  // Recovery: the queue drains, admission reopens, a fresh request is served.
  await waitUntil(async () => {
    const q = (await status()).thumbnails.queue;
    return q.depth === 0 && q.rejecting === false;
  }, 30000);
  // Admission is open again: a fresh request is admitted (QUEUE_FULL would fail here); a readback that a loaded
  // machine could not finish in 500 ms is the documented PREVIEW_TIMEOUT, counted and asked again.
  const late = new DocumentedAnswers();
  const after = await retryDocumented('/thumbnails/current?size=100', () => req('GET', api('/thumbnails/current?size=100')), late);
  assert.is(after.status, 200, `${after.text} (${late.summary()})`);
  assert.is(late.counts['503 THUMBNAIL_QUEUE_FULL'] ?? 0, 0, 'admission reopened once the queue drained');

  const rssAfter = await rssKb(s.proc.pid!);
  console.log(`rss before ${Math.round(rssBefore / 1024)} MiB, after ${Math.round(rssAfter / 1024)} MiB`);
  assert.ok(rssAfter - rssBefore < 200 * 1024, `memory grew by ${Math.round((rssAfter - rssBefore) / 1024)} MiB`);
  // The render loop kept its clock through the burst: every frame slot was a frame or a counted skip, none queued
  // (stats are up to 250 ms old at either end, hence the tolerance).
  const frames = clockEnd.frames - clockStart.frames;
  const skipped = clockEnd.droppedFrames - clockStart.droppedFrames;
  const slots = clockSpanS * clockEnd.targetFps;
  console.log(
    `render clock over the burst: ${frames} frames + ${skipped} skipped of ${Math.round(slots)} slots in ${clockSpanS.toFixed(1)} s`,
  );
  assert.ok(frames > 0, 'frames were rendered during the burst');
  assert.ok(
    Math.abs(frames + skipped - slots) <= slots * 0.1 + 2 * clockEnd.targetFps * 0.25 + 2,
    `${frames} frames + ${skipped} skipped of ${slots.toFixed(0)} slots`,
  );
  // And the frame rate comes back once the burst is over (waited for, however loaded the machine).
  await waitUntil(async () => (await status()).render.fps >= baseFps * 0.8, 30000, 250).catch(() => {
    throw new Error(
      `render fps did not come back to 80 % of ${baseFps.toFixed(1)} within 30 s of the burst (during: ${fpsDuring.join(',')})`,
    );
  });
});

test.run();
