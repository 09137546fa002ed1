// Output thumbnails off the render path: while a stream output or an MJPEG preview reads the program back, output
// thumbnails of any size are scaled from that readback in the encode pool and the render worker's thumbnail stage
// gets no job; without a readback they are drawn by the render worker as before. ETag and 304 keep following the
// output frame counter.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { startServer, req, freePort, waitUntil, type TestServer, type Res } from '../helpers/server.js';
import { decodeImage, near } from '../helpers/images.js';

let s: TestServer;
const api = (p: string): string => `${s.base}/api/v1${p}`;
const thumbs = async (): Promise<any> => (await req('GET', api('/status'))).json().thumbnails;
const get = (p: string, headers: Record<string, string> = {}): Promise<Res> => req('GET', api(p), { headers, timeoutMs: 15000 });

/** A thumbnail that answered 200 (a loaded machine may answer 503 PREVIEW_TIMEOUT now and then: asked again). */
async function thumb(p: string): Promise<Res> {
  let last: Res | null = null;
  await waitUntil(
    async () => {
      last = await get(p);
      return last.status === 200;
    },
    20000,
    100,
  );
  return last!;
}

/** The whole picture is one colour: corners and centre. */
function solid(r: Res, rgb: number[]): boolean {
  const img = decodeImage(r.body, r.headers['content-type'] as string);
  const pts: Array<[number, number]> = [
    [1, 1],
    [img.width - 2, 1],
    [img.width >> 1, img.height >> 1],
    [1, img.height - 2],
    [img.width - 2, img.height - 2],
  ];
  return pts.every(([x, y]) => near(img.at(x, y), rgb, 40));
}

async function select(id: string): Promise<void> {
  const r = await req('POST', api('/inputs/live/select'), { body: { id }, timeoutMs: 20000 });
  assert.is(r.status, 200, r.text);
}

test.before(async () => {
  s = await startServer({
    config: {
      render: { width: 320, height: 180, fps: 10 },
      sources: { firstRun: null },
      live: {
        test: [
          { id: 'red', name: 'Red', pattern: 'color=c=red:size=320x180:rate=10' },
          { id: 'blue', name: 'Blue', pattern: 'color=c=blue:size=320x180:rate=10' },
        ],
        streams: [],
        v4l2: { enabled: false },
      },
    },
  });
  await select('red');
});

test.after(async () => {
  await s?.cleanup();
});

test('without a readback the render worker draws output thumbnails', async () => {
  const before = await thumbs();
  const r = await thumb('/thumbnails/current?size=72');
  assert.ok(solid(r, [255, 0, 0]), 'red output');
  const after = await thumbs();
  assert.ok(after.from.render > before.from.render, 'drawn by the render worker');
  assert.is(after.from.readback, 0);
  assert.ok(after.renderJobs > before.renderJobs);
});

test('a stream output running: thumbnails of every size come from its readback, the render stage gets no job', async () => {
  const port = await freePort();
  const added = await req('POST', api('/outputs/add'), {
    body: { kind: 'stream', name: 'lan', url: `udp://127.0.0.1:${port}`, width: 64, height: 36, fps: 10 },
  });
  assert.is(added.status, 200, added.text);
  // The first answers may still be drawn by the render worker until the readback has a frame of its own.
  await waitUntil(async () => (await get('/thumbnails/current?size=72')).status === 200 && (await thumbs()).from.readback > 0, 30000, 200);
  const before = await thumbs();
  let served = 0;
  for (const q of ['size=72', 'size=32', 'size=160&format=jpg', 'size=512', 'size=97']) {
    const r = await thumb(`/thumbnails/current?${q}`);
    assert.ok(solid(r, [255, 0, 0]), `red at ${q}`);
    served++;
  }
  const img = decodeImage((await thumb('/thumbnails/current?size=512')).body, 'image/png');
  assert.is(img.width, 512, 'the asked size, whatever the readback size');
  assert.is(img.height, 288);
  // The picture follows the program, still without the render worker.
  await select('blue');
  await waitUntil(async () => solid(await thumb('/thumbnails/current?size=72'), [0, 0, 255]), 20000, 100);
  const after = await thumbs();
  assert.is(after.renderJobs, before.renderJobs, "the render worker's thumbnail stage stayed idle");
  assert.is(after.from.render, before.from.render);
  assert.ok(after.from.readback >= before.from.readback + served, `readback ${before.from.readback} → ${after.from.readback}`);
});

test('ETag and If-None-Match: 304 while the output frame did not move, the image once it did', async () => {
  const before = await thumbs();
  // The output counter moves every frame: ask twice until both answers fall within one frame.
  let a: Res | null = null;
  let b: Res | null = null;
  await waitUntil(
    async () => {
      a = await thumb('/thumbnails/current?size=72');
      b = await get('/thumbnails/current?size=72', { 'If-None-Match': String(a.headers.etag) });
      if (b.status === 200) assert.is.not(b.headers.etag, a.headers.etag, 'a 200 carries a new frame');
      return b.status === 304;
    },
    30000,
    0,
  );
  assert.is(b!.body.length, 0);
  assert.is(b!.headers.etag, a!.headers.etag);
  assert.match(String(a!.headers.etag), /^"current-72x41-png-f/);
  // The next frame is a change: the same If-None-Match gets the new image.
  await waitUntil(
    async () => (await get('/thumbnails/current?size=72', { 'If-None-Match': String(a!.headers.etag) })).status === 200,
    20000,
  );
  const after = await thumbs();
  assert.ok(after.notModified > before.notModified);
  assert.is(after.renderJobs, before.renderJobs);
});

test('an MJPEG preview alone also feeds thumbnails; with no reader left the render worker draws them again', async () => {
  const removed = await req('POST', api('/outputs/remove'), { body: { name: 'lan' } });
  assert.is(removed.status, 200, removed.text);
  // No readback now: the render worker draws again.
  const idle = await thumbs();
  await waitUntil(
    async () => (await get('/thumbnails/current?size=64')).status === 200 && (await thumbs()).from.render > idle.from.render,
    20000,
  );
  let client: ClientRequest | null = null;
  let bytes = 0;
  await new Promise<void>((resolve, reject) => {
    client = httpRequest(api('/output/preview.mjpeg?size=64&fps=5'), { agent: false }, (res) => {
      res.on('data', (c: Buffer) => {
        bytes += c.byteLength;
      });
      res.on('error', () => undefined);
      resolve();
    });
    client.on('error', reject);
    client.end();
  });
  try {
    await waitUntil(() => bytes > 0, 20000);
    const start = await thumbs();
    await waitUntil(
      async () => (await get('/thumbnails/current?size=64')).status === 200 && (await thumbs()).from.readback > start.from.readback,
      30000,
      200,
    );
    const before = await thumbs();
    const r = await thumb('/thumbnails/current?size=48');
    assert.ok(solid(r, [0, 0, 255]), 'blue output');
    const after = await thumbs();
    assert.is(after.renderJobs, before.renderJobs);
    assert.ok(after.from.readback > before.from.readback);
  } finally {
    (client as ClientRequest | null)?.destroy();
  }
  // The preview's reader gone, the readback stops and thumbnails are drawn by the render worker again.
  const gone = await thumbs();
  await waitUntil(
    async () => (await get('/thumbnails/current?size=64')).status === 200 && (await thumbs()).from.render > gone.from.render,
    20000,
    200,
  );
});

test.run();
