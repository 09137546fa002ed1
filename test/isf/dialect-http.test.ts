// The desktop-GLSL rewrite over real HTTP: an operator's effect written with int/float habits is added and draws,
// the built-in (valid) effects are never rewritten, and a GLSL ES 3.00 effect answers EFFECT_LOAD_FAILED naming
// the feature.
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeImage } from '../helpers/images.js';
import { ROOT, req, startServer, tempDir, waitUntil, type TestServer } from '../helpers/server.js';

let s: TestServer;
const api = (p: string): string => `${s.base}/api/v1${p}`;
const post = (p: string, body: unknown) => req('POST', api(p), { body });
const REWRITE_LOG = 'desktop-GLSL rewrite';

// Ignores its input: the output is a known color only when every int was converted as desktop GLSL would.
const TINT = `/*{ "DESCRIPTION": "int habits", "INPUTS": [{ "NAME": "inputImage", "TYPE": "image" }] }*/
float level() { return 1; }
void main() {
  float r = level() * 0.8;
  vec2 gb = vec2(1, 0) * 2 / 5;
  gl_FragColor = vec4(r, gb, 1);
}`;

test.before(async () => {
  const dataDir = await tempDir();
  const dir = join(dataDir, 'effects');
  await mkdir(dir);
  await writeFile(join(dir, 'dialect_tint.fs'), TINT);
  await copyFile(join(ROOT, 'test', 'fixtures', 'isf-compat', 'es3_version_texture.fs'), join(dir, 'es3_version_texture.fs'));
  s = await startServer({ dataDir, config: { effects: { dirs: [dir] }, render: { width: 160, height: 90, fps: 15 } } });
});
test.after(async () => {
  await s.cleanup();
});

test('an effect with desktop habits is added and draws the converted color', async () => {
  const r = await post('/effects/add', { type: 'dialect_tint' });
  assert.is(r.status, 200, r.text);
  let px: number[] = [];
  await waitUntil(
    async () => {
      const t = await req('GET', api('/thumbnails/current?size=32&format=png'), { timeoutMs: 15000 });
      if (t.status !== 200) return false;
      px = decodeImage(t.body, t.headers['content-type'] as string).at(16, 8);
      return Math.abs(px[0]! - 204) <= 2 && Math.abs(px[1]! - 102) <= 2 && px[2]! <= 2;
    },
    60000,
    250,
  );
  assert.ok(s.logs().includes(REWRITE_LOG), 'the rewrite is logged');
});

test('valid files are compiled as written: only the habit file was rewritten', async () => {
  assert.is((await post('/effects/add', { type: 'invert' })).status, 200);
  const lines = s
    .logs()
    .split('\n')
    .filter((l) => l.includes(REWRITE_LOG));
  assert.is(lines.length, 1, lines.join('\n'));
  assert.match(lines[0]!, /dialect_tint/);
});

test('a GLSL ES 3.00 effect: 500 EFFECT_LOAD_FAILED naming the feature and the WebGL 1 limit', async () => {
  const r = await post('/effects/add', { type: 'es3_version_texture' });
  assert.is(r.status, 500, r.text);
  const b = r.json();
  assert.is(b.code, 'EFFECT_LOAD_FAILED');
  assert.match(b.message, /#version 300 es/);
  assert.match(b.message, /GLSL ES 3\.00/);
  assert.match(b.message, /WebGL 1/);
});

test.run();
