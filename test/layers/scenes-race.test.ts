// Scene images and scenes stay paired over real HTTP: a save racing a delete of the same scene leaves no image
// behind it, and a restart removes an image no scene owns.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startServer, req, tempDir, waitUntil, type TestServer } from '../helpers/server.js';

let s: TestServer;
let dataDir: string;
let config: Record<string, unknown>;
const api = (p: string): string => `${s.base}/api/v1${p}`;
const post = (p: string, body: unknown) => req('POST', api(p), { body, timeoutMs: 30_000 });
const scenesDir = (): string => join(dataDir, 'scenes');

async function ok(p: string, body: unknown): Promise<any> {
  const r = await post(p, body);
  assert.is(r.status, 200, `${p}: ${r.text}`);
  return r.json();
}

const images = async (): Promise<string[]> =>
  (await readdir(scenesDir()).catch(() => [] as string[])).filter((n) => n.endsWith('.png')).sort();
const sceneIds = async (): Promise<string[]> => (await req('GET', api('/scenes'))).json().scenes.map((x: any) => x.id);

/** Every image in the scenes folder belongs to a listed scene. */
async function orphans(): Promise<string[]> {
  const ids = new Set(await sceneIds());
  return (await images()).filter((n) => !ids.has(n.slice(0, -'.png'.length)));
}

test.before(async () => {
  dataDir = await tempDir();
  const presets = join(dataDir, 'presets');
  await mkdir(presets, { recursive: true });
  await writeFile(join(presets, 'red.json'), JSON.stringify({ name: 'Red', source: 'solid_color', inputs: { color: [1, 0, 0, 1] } }));
  config = { presets: { dirs: [presets] }, live: { test: [], streams: [], v4l2: { enabled: false } } };
  s = await startServer({ dataDir, config });
  await ok('/sources/select', { id: 'preset:red' });
});

test.after(async () => {
  await s.cleanup();
});

test('a save racing a delete of the same scene never leaves an image without its scene', async () => {
  // The output has a frame before the race starts, so every save keeps an image.
  await ok('/scenes/save', { name: 'Keeper' });
  await waitUntil(async () => (await images()).includes('keeper.png'), 30_000);
  const left: string[] = [];
  for (let round = 0; round < 20; round++) {
    await ok('/scenes/save', { name: 'Race' });
    const [saved, deleted] = await Promise.all([post('/scenes/save', { name: 'Race' }), post('/scenes/delete', { name: 'Race' })]);
    assert.is(saved.status, 200, saved.text);
    assert.is(deleted.status, 200, deleted.text);
    const stray = await orphans();
    if (stray.length > 0) left.push(`round ${round}: image without a scene: ${stray.join(', ')}`);
    // A save that ran last keeps its scene and image; one that ran first leaves neither.
    if ((await sceneIds()).includes('race') && !(await images()).includes('race.png')) left.push(`round ${round}: scene without its image`);
  }
  assert.equal(left, [], `scenes and images out of step in ${left.length} of 20 rounds:\n${left.join('\n')}`);
  assert.ok((await images()).includes('keeper.png'), 'the scene outside the race keeps its image');
});

test('a restart removes an image no scene owns (logged) and keeps the others', async () => {
  await s.stop();
  await writeFile(join(scenesDir(), 'ghost.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  s = await startServer({ dataDir, config });
  await s.waitForLog('scene image without a scene removed', 30_000);
  const line = s
    .logs()
    .split('\n')
    .find((l) => l.includes('scene image without a scene removed'));
  assert.match(line ?? '', /ghost\.png/);
  const left = await images();
  assert.not.ok(left.includes('ghost.png'), `the stray image is gone: ${left}`);
  assert.ok(left.includes('keeper.png'), `the saved scene's image stays: ${left}`);
  assert.is((await req('GET', api('/thumbnails/scene/keeper'))).status, 200);
});

test.run();
