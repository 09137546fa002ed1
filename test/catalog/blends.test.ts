// Operator blend files over real HTTP: a file that breaks the blend convention and one that does not compile are
// listed in GET /catalog/errors (kind blend) while every shipped blend loads, and a folder of blends.dirs is watched.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Catalog } from '../../src/catalog/catalog.js';
import { log } from '../../src/log.js';
import { req, startServer, tempDir, waitUntil, type TestServer } from '../helpers/server.js';

let s: TestServer;
let dir: string;
const api = (p: string): string => `${s.base}/api/v1${p}`;
const errorsOf = async (): Promise<any[]> => (await req('GET', api('/catalog/errors'))).json().items;
const entry = (items: any[], type: string): any => items.find((e) => e.kind === 'blend' && e.type === type);

const HEADER = `/*{ "INPUTS": [ { "NAME": "baseImage", "TYPE": "image" }, { "NAME": "layerImage", "TYPE": "image" },
  { "NAME": "opacity", "TYPE": "float", "DEFAULT": 1.0, "MIN": 0.0, "MAX": 1.0 } ] }*/`;
const MAIN = `void main() {
  vec4 base = IMG_THIS_NORM_PIXEL(baseImage);
  vec4 top = IMG_THIS_NORM_PIXEL(layerImage);
  gl_FragColor = vec4(mix(base.rgb, vjdBlend(base.rgb, top.rgb), opacity), 1.0);
}`;
// No vjdBlend: a valid ISF file, but not a blend.
const NO_FUNCTION = `${HEADER}
void main() { gl_FragColor = IMG_THIS_NORM_PIXEL(layerImage) * opacity; }`;
// The convention holds, the GLSL does not compile (the body of vjdBlend names an undeclared value).
const BROKEN = `${HEADER}
vec3 vjdBlend(vec3 base, vec3 top) {
  return top * notDeclared;
}
${MAIN}`;
const MISSING_OPACITY = `/*{ "INPUTS": [ { "NAME": "baseImage", "TYPE": "image" }, { "NAME": "layerImage", "TYPE": "image" } ] }*/
vec3 vjdBlend(vec3 base, vec3 top) { return top; }
void main() { gl_FragColor = IMG_THIS_NORM_PIXEL(layerImage); }`;

test.before(async () => {
  const dataDir = await tempDir();
  dir = join(dataDir, 'blends');
  await mkdir(dir);
  await writeFile(join(dir, 'no_function.fs'), NO_FUNCTION);
  await writeFile(join(dir, 'broken.fs'), BROKEN);
  s = await startServer({ dataDir, config: { render: { width: 160, height: 90, fps: 30 }, blends: { dirs: [dir] } } });
  // Compile results reach the catalog after the render worker compiled the blends.
  await waitUntil(async () => entry(await errorsOf(), 'broken') !== undefined, 30_000, 100);
});

test.after(async () => {
  await s.cleanup();
});

test('a blend file breaking the convention and one that does not compile are listed; shipped blends load', async () => {
  const items = await errorsOf();
  const skipped = entry(items, 'no_function');
  assert.ok(skipped, JSON.stringify(items));
  assert.equal([skipped.stage, skipped.file], ['parse', join(dir, 'no_function.fs')]);
  assert.match(skipped.message, /vjdBlend/);
  const broken = entry(items, 'broken');
  assert.equal([broken.stage, broken.line, broken.file], ['compile', 4, join(dir, 'broken.fs')]);
  assert.match(broken.message, /notDeclared/);
  assert.not.ok(
    items.some((e: any) => e.file.startsWith('builtin:')),
    `every shipped blend loads: ${JSON.stringify(items)}`,
  );
});

test('the blends folder is watched: a bad file added later is listed, and removed from the list when fixed', async () => {
  const path = join(dir, 'late.fs');
  await writeFile(path, MISSING_OPACITY);
  await waitUntil(async () => entry(await errorsOf(), 'late') !== undefined, 30_000, 100);
  assert.match(entry(await errorsOf(), 'late').message, /opacity/);
  await writeFile(path, `${HEADER}\nvec3 vjdBlend(vec3 base, vec3 top) { return top; }\n${MAIN}`);
  await waitUntil(async () => entry(await errorsOf(), 'late') === undefined, 30_000, 100);
});

test('the catalog lists the shipped blends, an operator file replaces a built-in, a later folder wins', async () => {
  const root = await tempDir();
  const [first, second] = [join(root, 'one'), join(root, 'two')];
  await mkdir(first);
  await mkdir(second);
  const own = `${HEADER}\nvec3 vjdBlend(vec3 base, vec3 top) { return top * 0.5; }\n${MAIN}`;
  await writeFile(join(first, 'normal.fs'), own);
  await writeFile(join(second, 'normal.fs'), own);
  await writeFile(join(second, 'no_function.fs'), NO_FUNCTION);
  const quiet = log.child({});
  quiet.level = 'silent';
  const catalog = new Catalog({ effects: [], sources: [], presets: [], blends: [first, second] }, quiet);
  await catalog.reload();
  const blends = catalog.snapshot.blends;
  assert.equal(blends.map((d) => d.type).sort(), [
    'add',
    'alpha',
    'darken',
    'difference',
    'lighten',
    'multiply',
    'normal',
    'overlay',
    'screen',
  ]);
  assert.is(blends.find((d) => d.type === 'normal')!.file, join(second, 'normal.fs'));
  assert.ok(blends.find((d) => d.type === 'screen')!.file.startsWith('builtin:'));
  assert.ok(catalog.errors.list().items.some((e) => e.kind === 'blend' && e.type === 'no_function'));
});

test.run();
