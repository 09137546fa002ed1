// Thumbnail load: 200 concurrent clients hammer the thumbnail routes. The queue must refuse work with 503
// THUMBNAIL_QUEUE_FULL (Retry-After) instead of growing, recover after the burst (rejecting until depth ≤ 16,
// then admitting again), keep memory bounded and leave the render loop's frame rate within 20%.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { startServer, req, waitUntil, type TestServer } from '../helpers/server.js';

let s: TestServer;
const api = (p: string): string => `${s.base}/api/v1${p}`;
const status = async (): Promise<any> => (await req('GET', api('/status'))).json();

async function rssKb(pid: number): Promise<number> {
  const text = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(text)?.[1] ?? NaN);
}

test.before(async () => {
  s = await startServer({
    config: { live: { test: [{ id: 'bars', name: 'Color Bars', pattern: 'smptehdbars=size=640x360:rate=30' }], streams: [], v4l2: { enabled: false } } },
  });
  assert.is((await req('POST', api('/sources/select'), { body: { id: 'source:plasma' } })).status, 200);
});

test.after(async () => {
  await s?.cleanup();
});

test('200 concurrent clients: 503 THUMBNAIL_QUEUE_FULL with Retry-After, recovery, bounded memory, frame rate held', async () => {
  await waitUntil(async () => (await status()).render.fps >= 25, 10000);
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

  const summary = { ...Object.fromEntries(counts), queue: (await status()).thumbnails.queue };
  console.log('thumbnail burst:', JSON.stringify(summary), 'max depth', Math.max(...depths), 'fps before', baseFps.toFixed(1), 'during', fpsDuring.join(','));
  assert.ok((counts.get('503 THUMBNAIL_QUEUE_FULL') ?? 0) > 0, 'the queue refused work');
  assert.ok((counts.get('200') ?? 0) > 0, 'work was done');
  for (const key of counts.keys()) assert.ok(['200', '503 THUMBNAIL_QUEUE_FULL', '503 PREVIEW_TIMEOUT'].includes(key), `unexpected answer ${key}`);
  assert.is(badBodies, 0);
  assert.is(retryAfterMissing, 0);
  assert.ok(Math.max(...depths) <= 32, 'depth never above 32');

  // Recovery: the queue drains, admission reopens, a fresh request is served.
  await waitUntil(async () => {
    const q = (await status()).thumbnails.queue;
    return q.depth === 0 && q.rejecting === false;
  }, 10000);
  const after = await req('GET', api('/thumbnails/current?size=100'));
  assert.is(after.status, 200);

  const rssAfter = await rssKb(s.proc.pid!);
  console.log(`rss before ${Math.round(rssBefore / 1024)} MiB, after ${Math.round(rssAfter / 1024)} MiB`);
  assert.ok(rssAfter - rssBefore < 200 * 1024, `memory grew by ${Math.round((rssAfter - rssBefore) / 1024)} MiB`);
  const fpsMedian = [...fpsDuring].sort((a, b) => a - b)[fpsDuring.length >> 1]!;
  assert.ok(fpsMedian >= baseFps * 0.8, `render fps during the burst ${fpsMedian} vs ${baseFps.toFixed(1)} before`);
});

test.run();
