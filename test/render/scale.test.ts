// Fixed render scale over real HTTP and GL: a probe generator writes RENDERSIZE into its pixels, the output and an
// MJPEG preview keep the configured size and are filled by the one upscale, a reload changes the scale live, and a
// scale outside 0.25..1 or not "auto" stops the start naming the key.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { request as httpRequest } from 'node:http';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import jpeg from 'jpeg-js';
import { editConfig, req, runCli, sampleOutput, startServer, tempDir, waitUntil, type TestServer } from '../helpers/server.js';

let s: TestServer;
const api = (p: string): string => `${s.base}/api/v1${p}`;
const status = async () => (await req('GET', api('/status'))).json().render;

// RENDERSIZE as a share of the configured 320×180 in red and green; blue marks every pixel the picture covers.
const PROBE = `/*{ "NAME": "Size Probe", "INPUTS": [] }*/
void main() { gl_FragColor = vec4(RENDERSIZE.x / 320.0, RENDERSIZE.y / 180.0, 1.0, 1.0); }`;

const CORNERS: Array<[number, number]> = [
  [0.01, 0.01],
  [0.99, 0.01],
  [0.5, 0.5],
  [0.01, 0.99],
  [0.99, 0.99],
];

test.before(async () => {
  const dir = await tempDir();
  await mkdir(join(dir, 'gens'));
  await writeFile(join(dir, 'gens', 'size_probe.fs'), PROBE);
  s = await startServer({
    config: {
      render: { width: 320, height: 180, fps: 30, scale: 0.5 },
      sources: { dirs: [join(dir, 'gens')] },
      live: { test: [], streams: [], v4l2: { enabled: false } },
    },
  });
  const r = await req('POST', api('/sources/select'), { body: { id: 'source:size_probe' } });
  assert.is(r.status, 200, r.text);
});

test.after(async () => {
  await s?.cleanup();
});

/** Waits until every probe point shows RENDERSIZE at `share` of the output size and the picture covers it. */
async function outputShows(share: number): Promise<number[][]> {
  let px: number[][] = [];
  const want = Math.round(share * 255);
  const ok = (): boolean => px.every((p) => Math.abs(p[0]! - want) <= 2 && Math.abs(p[1]! - want) <= 2 && p[2]! >= 250);
  try {
    await waitUntil(async () => {
      px = await sampleOutput(s.base, CORNERS);
      return ok();
    }, 30000);
  } catch {
    assert.unreachable(`output never showed RENDERSIZE at ${share}: ${JSON.stringify(px)}`);
  }
  return px;
}

/** The first JPEG part of an MJPEG preview at `size` px wide. */
function previewFrame(size: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const r = httpRequest(api(`/output/preview.mjpeg?size=${size}&fps=5`), { agent: false }, (res) => {
      let buf = Buffer.alloc(0);
      res.on('data', (c: Buffer) => {
        buf = Buffer.concat([buf, c]);
        const head = buf.indexOf('\r\n\r\n');
        if (head < 0) return;
        const length = Number(/Content-Length: (\d+)/i.exec(buf.subarray(0, head).toString('latin1'))?.[1]);
        if (buf.byteLength < head + 4 + length) return;
        resolve(Buffer.from(buf.subarray(head + 4, head + 4 + length)));
        r.destroy();
      });
      res.on('error', () => undefined);
    });
    r.on('error', reject);
    r.setTimeout(30000, () => r.destroy(new Error('no preview frame within 30 s')));
    r.end();
  });
}

test('scale 0.5: drawn at half size (RENDERSIZE, /status), the output stays 320×180 and is filled by the upscale', async () => {
  const r = await status();
  assert.is(r.scale, 0.5);
  assert.is(r.renderWidth, 160);
  assert.is(r.renderHeight, 90);
  assert.is(r.width, 320);
  assert.is(r.height, 180);
  await outputShows(0.5);
});

test('scale 0.5: an MJPEG preview decodes at its full size with the half-size picture scaled up over all of it', async () => {
  const img = jpeg.decode(await previewFrame(320), { useTArray: true });
  assert.is(img.width, 320);
  assert.is(img.height, 180);
  for (const [nx, ny] of CORNERS) {
    const i = (Math.floor(ny * (img.height - 1)) * img.width + Math.floor(nx * (img.width - 1))) * 4;
    const [red, green, blue] = [img.data[i]!, img.data[i + 1]!, img.data[i + 2]!];
    // JPEG moves colours a little; half size reads about 128 in red and green.
    assert.ok(Math.abs(red - 128) <= 12 && Math.abs(green - 128) <= 12 && blue >= 230, `${nx},${ny}: ${red},${green},${blue}`);
  }
});

test('render.scale is live: a reload to 1 draws at full size, to 0.75 at three quarters', async () => {
  await editConfig(s, (c) => (c.render.scale = 1));
  await waitUntil(async () => (await status()).scale === 1, 30000);
  await outputShows(1);
  await editConfig(s, (c) => (c.render.scale = 0.75));
  await waitUntil(async () => (await status()).renderWidth === 240, 30000);
  assert.is((await status()).renderHeight, 135);
  await outputShows(0.75);
});

test('a render.scale of 0, 2 or "fast" stops the start and names the key and file', async () => {
  const dir = await tempDir();
  const file = join(dir, 'bad.json');
  for (const bad of [0, 2, 'fast']) {
    await writeFile(file, JSON.stringify({ render: { scale: bad } }));
    const r = await runCli(['serve', '--config', file, '--data-dir', dir]);
    const out = r.stdout + r.stderr;
    assert.is(r.code, 2, out);
    assert.match(out, /render\.scale must be a number from 0\.25 to 1, or /);
    assert.ok(out.includes(file), out);
  }
  await writeFile(file, JSON.stringify({ render: { scale: 'auto', minScale: 0.1 } }));
  const r = await runCli(['serve', '--config', file, '--data-dir', dir]);
  assert.is(r.code, 2);
  assert.match(r.stdout + r.stderr, /render\.minScale/);
  // The accepted forms load (a command that reads the config without serving).
  for (const good of [{ scale: 0.25 }, { scale: 1 }, { scale: 'auto', minScale: 0.25 }]) {
    await writeFile(file, JSON.stringify({ render: good }));
    const ok = await runCli(['license', 'status', '--config', file, '--data-dir', dir]);
    const out = ok.stdout + ok.stderr;
    assert.is.not(ok.code, 2, out);
    assert.not.match(out, /render\./);
  }
});

test.run();
