// GET /browse over real HTTP against a running server with a real media library (spec section 4, GET /browse).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startServer, req, tempDir, waitUntil, type TestServer } from '../helpers/server.js';

const run = promisify(execFile);
let s: TestServer;
let media: string;
const api = (p: string): string => `${s.base}/api/v1${p}`;
const browse = (q: string) => req('GET', api(`/browse${q}`));
const ok = async (q: string): Promise<any> => {
  const r = await browse(q);
  assert.is(r.status, 200, `${q}: ${r.text}`);
  return r.json();
};

async function still(path: string, color: string): Promise<void> {
  await run('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `color=c=${color}:size=64x36`,
    '-frames:v',
    '1',
    path,
  ]);
}

test.before(async () => {
  const dataDir = await tempDir();
  media = join(dataDir, 'lib');
  await mkdir(join(media, 'Stage Looks', 'Deep'), { recursive: true });
  await mkdir(join(media, 'stage-looks'), { recursive: true });
  await mkdir(join(media, 'Empty Folder'), { recursive: true });
  await still(join(media, 'Stage Looks', 'Red.png'), 'red');
  await still(join(media, 'Stage Looks', 'Deep', 'Blue.png'), 'blue');
  await still(join(media, 'stage-looks', 'Green.png'), 'green');
  s = await startServer({
    dataDir,
    config: {
      media: { roots: [media] },
      live: {
        test: [{ id: 'bars', name: 'Color Bars', pattern: 'color=c=white:size=64x36:rate=10' }],
        streams: [],
        v4l2: { enabled: false },
      },
    },
  });
  await waitUntil(async () => (await ok('?path=/files')).count > 0, 20000);
});
test.after(async () => {
  await s.cleanup();
});

test('root: folders in spec order, parentPath null, childCount of visible children only', async () => {
  const b = await ok('');
  assert.is(b.path, '/');
  assert.is(b.parentPath, null);
  assert.equal(
    b.items.map((n: any) => n.browsePath),
    ['/sources', '/presets', '/live', '/files'],
  );
  assert.is(b.count, 4);
  for (const n of b.items) {
    assert.is(n.kind, 'folder');
    assert.match(n.id, /^folder:[0-9a-f]{16}$/);
    assert.is(n.activeState, false);
    assert.not.ok('children' in n, 'no children at depth 1');
  }
  const files = b.items.find((n: any) => n.browsePath === '/files');
  assert.is(files.childCount, 2, 'the empty folder is not counted');
  assert.equal(await ok('?path=/&depth=1'), b);
});

test('depth 2 and 3 expand folders; children equal a direct request', async () => {
  const d2 = await ok('?path=/files&depth=2');
  const looks = d2.items.find((n: any) => n.name === 'Stage Looks');
  assert.ok(Array.isArray(looks.children));
  const direct = await ok(`?path=${looks.browsePath}`);
  assert.equal(looks.children, direct.items);
  const deep = looks.children.find((n: any) => n.kind === 'folder');
  assert.not.ok('children' in deep, 'depth 2 expands one level');
  const d3 = await ok('?path=/files&depth=3');
  const deep3 = d3.items.find((n: any) => n.name === 'Stage Looks').children.find((n: any) => n.kind === 'folder');
  assert.equal(deep3.children, (await ok(`?path=${deep3.browsePath}`)).items);
});

test('slugs: lower case from a-z0-9/_-, sibling collisions resolved deterministically, folder ids stable', async () => {
  const b = await ok('?path=/files');
  const paths = b.items.filter((n: any) => n.kind === 'folder').map((n: any) => n.browsePath);
  assert.equal(paths.sort(), ['/files/stage-looks', '/files/stage-looks-2']);
  for (const p of paths) assert.match(p, /^[a-z0-9/_-]+$/);
  const again = await ok('?path=/files');
  assert.equal(
    again.items.map((n: any) => n.id),
    b.items.map((n: any) => n.id),
  );
});

test('items: thumbnailUrl and activate that works when sent unchanged; activeState on the current item only', async () => {
  const live = await ok('?path=/live/test');
  assert.is(live.parentPath, '/live');
  const bars = live.items[0];
  assert.equal(bars.id, 'liveInput:bars');
  assert.is(bars.thumbnailUrl, '/api/v1/thumbnails/live/bars');
  assert.equal(bars.activate, { method: 'POST', path: '/api/v1/inputs/live/select', body: { id: 'bars' } });
  const r = await req(bars.activate.method, `${s.base}${bars.activate.path}`, { body: bars.activate.body, timeoutMs: 15000 });
  assert.is(r.status, 200, r.text);
  assert.is((await ok('?path=/live/test')).items[0].activeState, true);
  const src = await ok('?path=/sources');
  assert.ok(src.items.every((n: any) => n.activeState === false));
  const plasma = src.items.find((n: any) => n.id === 'source:plasma');
  assert.is(plasma.kind, 'sourceType');
  assert.is(plasma.thumbnailUrl, '/api/v1/thumbnails/source/source:plasma');
  const sel = await req('POST', `${s.base}${plasma.activate.path}`, { body: plasma.activate.body });
  assert.is(sel.status, 200);
  assert.is((await ok('?path=/sources')).items.find((n: any) => n.id === 'source:plasma').activeState, true);
  assert.is((await ok('?path=/live/test')).items[0].activeState, false, 'at most one active item');
  const files = await ok('?path=/files/stage-looks');
  const red = files.items.find((n: any) => n.name === 'Red');
  assert.is(red.kind, 'fileInput');
  assert.match(red.thumbnailUrl, /^\/media\//);
  assert.equal(red.activate, { method: 'POST', path: '/api/v1/inputs/file/select', body: { id: red.id } });
});

test('paths: one trailing slash ignored, case-insensitive, empty roots addressable', async () => {
  assert.equal(await ok('?path=/live/'), await ok('?path=/live'));
  assert.equal(await ok('?path=/LIVE/Test'), await ok('?path=/live/test'));
  const stream = await ok('?path=/live/stream');
  assert.equal([stream.count, stream.items], [0, []], 'a provider without inputs is an empty, addressable folder');
  assert.not.ok(
    (await ok('?path=/live')).items.some((n: any) => n.browsePath === '/live/stream'),
    'and left out of its parent',
  );
  assert.is((await browse('?path=/live/v4l2')).status, 404, 'a provider switched off in config is no folder');
  const empty = await ok('?path=/files/empty-folder');
  assert.equal(empty.items, []);
});

test('errors: INVALID_PATH, INVALID_DEPTH, PATH_NOT_FOUND; the active source is unchanged', async () => {
  const before = (await req('GET', api('/sources/current'))).json();
  const expect = async (q: string, status: number, code: string): Promise<void> => {
    const r = await browse(q);
    assert.is(r.status, status, q);
    const b = r.json();
    assert.equal([b.error, b.code], [true, code], q);
  };
  await expect(`?path=/${'a'.repeat(512)}`, 400, 'INVALID_PATH');
  await expect('?path=/files/a.b', 400, 'INVALID_PATH');
  await expect('?path=/files%20x', 400, 'INVALID_PATH');
  await expect('?path=', 400, 'INVALID_PATH');
  for (const d of ['0', '4', '1.5', 'abc', '', '-1', '2.0']) await expect(`?depth=${d}`, 400, 'INVALID_DEPTH');
  await expect('?path=/nowhere', 404, 'PATH_NOT_FOUND');
  await expect('?path=/files/stage-looks/nothing', 404, 'PATH_NOT_FOUND');
  await expect('?path=/live//', 404, 'PATH_NOT_FOUND');
  assert.equal((await req('GET', api('/sources/current'))).json(), before);
});

test('a 512-character path is well-formed (404, not 400)', async () => {
  const r = await browse(`?path=/${'a'.repeat(511)}`);
  assert.is(r.status, 404);
  assert.is(r.json().code, 'PATH_NOT_FOUND');
});

test.run();
