// Operator folders over real HTTP: generators from sources.dirs and presets from presets.dirs appear in /sources
// and browse, drive the output with their inputs, replace built-ins of the same type, and broken files are skipped.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startServer, req, tempDir, waitUntil, type TestServer } from '../helpers/server.js';

let s: TestServer;
let presetsDir: string;
const api = (p: string): string => `${s.base}/api/v1${p}`;
const get = async (p: string) => (await req('GET', api(p))).json();

const FLAT = `/*{ "NAME": "House Flat", "INPUTS": [ { "NAME": "tint", "TYPE": "color", "DEFAULT": [1.0, 0.0, 0.0, 1.0] } ] }*/
void main() { gl_FragColor = vec4(tint.rgb, 1.0); }`;
// Same type as the built-in solid_color: the operator's file replaces it.
const SOLID = `/*{ "NAME": "Solid Color", "INPUTS": [ { "NAME": "color", "TYPE": "color", "DEFAULT": [1.0, 1.0, 1.0, 1.0] } ] }*/
void main() { gl_FragColor = vec4(color.rgb, 1.0); }`;

async function sample(): Promise<number[]> {
  return (await req('POST', api('/_test/sample'), { body: { points: [[0.5, 0.5]] } })).json().pixels[0];
}

test.before(async () => {
  const dataDir = await tempDir();
  const sourcesDir = join(dataDir, 'gens');
  presetsDir = join(dataDir, 'presets');
  await mkdir(sourcesDir);
  await mkdir(presetsDir);
  await writeFile(join(sourcesDir, 'house_flat.fs'), FLAT);
  await writeFile(join(sourcesDir, 'solid_color.fs'), SOLID);
  await writeFile(
    join(sourcesDir, 'effect_in_wrong_place.fs'),
    `/*{ "INPUTS": [ { "NAME": "inputImage", "TYPE": "image" } ] }*/ void main() { gl_FragColor = IMG_THIS_PIXEL(inputImage); }`,
  );
  await writeFile(
    join(presetsDir, 'house_green.json'),
    JSON.stringify({ name: 'House Green', source: 'house_flat', inputs: { tint: [0, 1, 0, 1] } }),
  );
  await writeFile(join(presetsDir, 'orphan.json'), JSON.stringify({ name: 'Orphan', source: 'no_such_generator', inputs: {} }));
  await writeFile(join(presetsDir, 'broken.json'), '{ "name": ');
  s = await startServer({
    dataDir,
    config: { sources: { dirs: [sourcesDir] }, presets: { dirs: [presetsDir] }, live: { test: [], streams: [], v4l2: { enabled: false } } },
  });
});
test.after(async () => {
  await s.cleanup();
});

test('operator generators and presets are listed; broken or misplaced files are skipped with the file named', async () => {
  const list = (await get('/sources')).items;
  assert.ok(list.some((i: any) => i.id === 'source:house_flat' && i.name === 'House Flat' && i.sourceKind === 'generator'));
  assert.ok(list.some((i: any) => i.id === 'preset:house_green' && i.sourceKind === 'preset'));
  assert.not.ok(list.some((i: any) => i.id === 'preset:orphan' || i.id === 'preset:broken' || i.id === 'source:effect_in_wrong_place'));
  const logs = s.logs();
  assert.match(logs, /orphan\.json/);
  assert.match(logs, /broken\.json/);
  assert.match(logs, /effect_in_wrong_place\.fs/);
  const browse = await get('/browse?path=/presets');
  assert.ok(browse.items.some((n: any) => n.id === 'preset:house_green' && n.kind === 'sourcePreset'));
});

test('a preset drives its generator with the saved inputs; an operator file replaces the built-in type', async () => {
  const r = await req('POST', api('/sources/select'), { body: { name: 'house green' } });
  assert.is(r.status, 200, r.text);
  assert.equal(r.json().current, { id: 'preset:house_green', name: 'House Green', sourceKind: 'preset', type: 'generator' });
  const [rr, g, b] = await sample();
  assert.ok(rr! < 10 && g! > 245 && b! < 10, 'green from the preset, not the generator default red');
  await req('POST', api('/sources/select'), { body: { id: 'source:solid_color' } });
  const [w1, w2, w3] = await sample();
  assert.ok(w1! > 245 && w2! > 245 && w3! > 245, 'the operator solid_color (white) replaced the built-in (blue)');
});

test('a preset file added while running appears without a restart', async () => {
  await writeFile(
    join(presetsDir, 'house_blue.json'),
    JSON.stringify({ name: 'House Blue', source: 'house_flat', inputs: { tint: [0, 0, 1, 1] } }),
  );
  await waitUntil(async () => (await get('/sources')).items.some((i: any) => i.id === 'preset:house_blue'), 10000);
  const r = await req('POST', api('/sources/select'), { body: { id: 'preset:house_blue' } });
  assert.is(r.status, 200);
  const [x, y, z] = await sample();
  assert.ok(x! < 10 && y! < 10 && z! > 245);
});

test.run();
