// Colours out of the box are right in both program layouts: I420 packed on the GPU (BT.709 limited range; chosen
// here by config, as this box's software renderer reads RGBA back cheaper) and RGBA at a size the packing cannot
// split (converted by ffmpeg with the same matrix). Colour bars stacked top to bottom go
// through a real recording, decoded by ffmpeg as any player would (from the file's own colour tags), and through the
// output thumbnail; each band must come out in its place (nothing flipped) and in its colour.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { startServer, req, waitUntil, type TestServer } from '../helpers/server.js';
import { decodeImage } from '../helpers/images.js';
import { run } from './media.js';

const BANDS: Array<[string, [number, number, number]]> = [
  ['red', [255, 0, 0]],
  ['lime', [0, 255, 0]],
  ['blue', [0, 0, 255]],
  ['white', [255, 255, 255]],
  ['yellow', [255, 255, 0]],
  ['gray', [128, 128, 128]],
];
/** Per channel: 8-bit limited range rounds twice and H.264 adds a little; a wrong matrix is off by 20 or more. */
const TOLERANCE = 12;

function bars(width: number, height: number): string {
  const h = height / BANDS.length;
  const sources = BANDS.map(([c], i) => `color=c=${c}:size=${width}x${h}:rate=30[b${i}]`).join(';');
  return `${sources};${BANDS.map((_, i) => `[b${i}]`).join('')}vstack=inputs=${BANDS.length}`;
}

/** The mean colour of a 5×5 block around (x, y) of an rgb24 image. */
function at(rgb: Buffer, width: number, x: number, y: number): number[] {
  const sum = [0, 0, 0];
  for (let dy = -2; dy <= 2; dy++)
    for (let dx = -2; dx <= 2; dx++) for (let c = 0; c < 3; c++) sum[c]! += rgb[((y + dy) * width + x + dx) * 3 + c]!;
  return sum.map((v) => Math.round(v / 25));
}

function checkBands(what: string, rgb: Buffer, width: number, height: number): void {
  BANDS.forEach(([name, want], i) => {
    const got = at(rgb, width, width >> 1, Math.round(((i + 0.5) * height) / BANDS.length));
    const off = Math.max(...got.map((v, c) => Math.abs(v - want[c]!)));
    assert.ok(off <= TOLERANCE, `${what}: band ${i} should be ${name} ${want}, got ${got}`);
  });
}

async function show(width: number, height: number, readback: string, layout: string): Promise<void> {
  const server: TestServer = await startServer({
    config: {
      render: { width, height, fps: 30, readback },
      live: { test: [{ id: 'bars', name: 'Bars', pattern: bars(width, height) }], streams: [], v4l2: { enabled: false } },
      outputs: [{ id: 'rec', kind: 'record', enabled: false }],
    },
  });
  try {
    const api = (p: string): string => `${server.base}/api/v1${p}`;
    const output = async () => (await req('GET', api('/outputs'))).json().items[0];
    assert.is((await req('POST', api('/sources/select'), { body: { id: 'bars' } })).status, 200);
    const render = (await req('GET', api('/status'))).json().render;
    assert.is(render.readback.layout, layout.toLowerCase(), 'GET /status says how program frames leave');
    assert.type(render.scaleLimit.encodeDropPct, 'number');
    assert.is((await req('POST', api('/outputs/enabled'), { body: { id: 'rec', enabled: true } })).status, 200);
    await waitUntil(async () => (await output()).framesSent >= 30, 30000).catch(async () => {
      throw new Error(`${layout}: the recording did not take 30 frames: ${JSON.stringify(await output())}`);
    });
    assert.is((await req('POST', api('/outputs/enabled'), { body: { id: 'rec', enabled: false } })).status, 200);
    await waitUntil(async () => (await output()).state === 'stopped', 10000);
    const file = join(server.dataDir, 'recordings', (await output()).target);

    const tags = await run('ffprobe', [
      '-v',
      'error',
      '-select_streams',
      'v:0',
      '-show_entries',
      'stream=color_space,color_range,color_primaries',
      '-of',
      'csv=p=0',
      file,
    ]);
    assert.is(tags.stdout.trim(), 'tv,bt709,bt709', `${layout}: the stream says BT.709 limited range`);
    const frame = await decodeFrame(file, 20, width, height);
    checkBands(`${layout} recording`, frame, width, height);

    const thumb = await req('GET', api('/thumbnails/current?size=160'), { timeoutMs: 15000 });
    assert.is(thumb.status, 200, thumb.text.slice(0, 200));
    const img = decodeImage(thumb.body, thumb.headers['content-type'] as string);
    const rgb = Buffer.alloc(img.width * img.height * 3);
    for (let y = 0; y < img.height; y++) for (let x = 0; x < img.width; x++) rgb.set(img.at(x, y).slice(0, 3), (y * img.width + x) * 3);
    checkBands(`${layout} output thumbnail`, rgb, img.width, img.height);
  } finally {
    await server.cleanup();
  }
}

/** Frame `n` of a file as rgb24, converted by ffmpeg from the file's own colour tags. */
async function decodeFrame(file: string, n: number, width: number, height: number): Promise<Buffer> {
  const r = spawnSync(
    'ffmpeg',
    ['-v', 'error', '-i', file, '-vf', `select=eq(n\\,${n})`, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'],
    {
      maxBuffer: width * height * 4,
    },
  );
  assert.is(r.stdout.length, width * height * 3, `one decoded frame of ${file}: ${r.stderr}`);
  return r.stdout;
}

test('a render size the GPU packs into I420: bands in place and in colour, in the recording and the thumbnail', async () => {
  await show(320, 180, 'i420', 'I420');
});

test('a render size it cannot pack (RGBA, bottom-up, to ffmpeg): the same bands and colours', async () => {
  await show(300, 180, 'auto', 'RGBA');
});

test.run();
