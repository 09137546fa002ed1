// Fault injection on sources over real HTTP: the current live input's ffmpeg SIGKILLed, media files deleted and
// truncated while current, and the media root removed and re-created.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFile } from 'node:child_process';
import { copyFile, mkdir, readdir, rm, stat, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startServer, tempDir, sleep, type TestServer } from '../helpers/server.js';
import { Client, FaultReport, childPids, near, poll, type Rgb } from './faults-common.js';

const run = promisify(execFile);
const RED_PATTERN = 'color=c=red:size=320x180:rate=30';
const RED: Rgb = [255, 0, 0];
const YELLOW: Rgb = [255, 255, 0];
const CYAN: Rgb = [0, 255, 255];
const MAGENTA: Rgb = [255, 0, 255];

let s: TestServer;
let work: string;
let fixtures: string;
let media: string;
const c = new Client(() => s.base);
const report = new FaultReport();

/**
 * Every read route a control surface polls; none may answer 5xx while a fault is in progress, except the load
 * answers the spec documents for thumbnails (counted in the fault's figures; the thumbnail is asked again).
 */
async function sweep(): Promise<void> {
  for (const p of ['/status', '/sources', '/sources/current', '/browse?path=/files&depth=3', '/effects', '/palettes/current'])
    await c.get(p);
  const thumb = await c.thumb('/thumbnails/current?size=64');
  assert.is(thumb.status, 200, `current thumbnail: ${thumb.text}`);
}

const fileItems = async (): Promise<any[]> => (await c.json('/sources')).items.filter((i: any) => i.sourceKind === 'file');

function flatten(nodes: any[], out: any[] = []): any[] {
  for (const n of nodes) {
    out.push(n);
    if (n.children) flatten(n.children, out);
  }
  return out;
}

const browseFiles = async (): Promise<any[]> =>
  flatten((await c.json('/browse?path=/files&depth=3')).items).filter((n) => n.kind === 'fileInput');

test.before(async () => {
  work = await tempDir('vjd-faults-inputs-');
  fixtures = join(work, 'fixtures');
  media = join(work, 'library');
  await mkdir(join(fixtures, 'Clips'), { recursive: true });
  const ff = ['-hide_banner', '-loglevel', 'error', '-y'];
  await run('ffmpeg', [
    ...ff,
    '-f',
    'lavfi',
    '-i',
    'color=c=yellow:size=320x240:rate=25',
    '-t',
    '2',
    '-pix_fmt',
    'yuv420p',
    join(fixtures, 'Clips', 'Yellow Loop.mp4'),
  ]);
  // Constant bitrate pads the solid color to ~1 MB: far more than ffmpeg buffers, so cutting the file to a third
  // takes away data it has not read yet, and the index at the end of the file.
  const cbr = ['-c:v', 'libx264', '-b:v', '1M', '-minrate', '1M', '-maxrate', '1M', '-bufsize', '500k', '-x264-params', 'nal-hrd=cbr'];
  await run('ffmpeg', [
    ...ff,
    '-f',
    'lavfi',
    '-i',
    'color=c=cyan:size=320x240:rate=25',
    '-t',
    '8',
    '-pix_fmt',
    'yuv420p',
    ...cbr,
    join(fixtures, 'Clips', 'Cyan Clip.mp4'),
  ]);
  await run('ffmpeg', [...ff, '-f', 'lavfi', '-i', 'color=c=magenta:size=160x90', '-frames:v', '1', join(fixtures, 'magenta still.png')]);
  await copyTree(fixtures, media);
  s = await startServer({
    dataDir: join(work, 'data'),
    config: {
      media: { roots: [media] },
      live: { test: [{ id: 'red', name: 'Red Test', pattern: RED_PATTERN }], streams: [], v4l2: { enabled: false } },
    },
  });
  await poll('the media scan', async () => ((await fileItems()).length === 3 ? true : undefined), 30000);
});

test.after(async () => {
  await s?.cleanup();
  await rm(work, { recursive: true, force: true });
  await report.save();
});

async function copyTree(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const ent of await readdir(from, { withFileTypes: true })) {
    if (ent.isDirectory()) await copyTree(join(from, ent.name), join(to, ent.name));
    else await copyFile(join(from, ent.name), join(to, ent.name));
  }
}

test('ffmpeg of the current live input SIGKILLed: the input stays current, ffmpeg restarts, the color comes back', () =>
  report.run(
    'ffmpeg-killed',
    async () => {
      c.serverErrors.length = 0; // one test's failure is its own, not the next one's
      const sel = await c.post('/inputs/live/select', { id: 'red' });
      assert.is(sel.status, 200, sel.text);
      assert.ok(near(await c.sample(), RED), 'red on the output before the fault');
      const [old] = await poll('exactly one ffmpeg child for the red pattern', async () => {
        const pids = await childPids(s.proc.pid!, RED_PATTERN);
        return pids.length === 1 ? pids : undefined;
      });
      const killedAt = Date.now();
      process.kill(old!, 'SIGKILL');
      let sawCurrent = 0;
      const fresh = await poll(
        'a new ffmpeg pid',
        async () => {
          const cur = await c.json('/sources/current');
          assert.is(cur.id, 'red', 'the input stays current while ffmpeg is down');
          sawCurrent++;
          const pids = await childPids(s.proc.pid!, RED_PATTERN);
          return pids.length === 1 && pids[0] !== old ? pids[0] : undefined;
        },
        30000,
        50,
      );
      const restartMs = Date.now() - killedAt;
      // The output keeps the last frame for a while, so red alone proves nothing: frames must flow again (the live
      // preview's ETag changes per frame and is not a placeholder), and red must outlast the 2000 ms stall window
      // after which a dead input would show the no-signal card.
      let lastTag = '';
      await poll(
        'fresh frames from the new ffmpeg',
        async () => {
          const r = await c.get('/thumbnails/live/red?size=32');
          const tag = String(r.headers.etag ?? '');
          const fresh = r.status === 200 && !/-p[^-"]*"$/.test(tag) && lastTag !== '' && tag !== lastTag;
          lastTag = tag;
          return fresh ? true : undefined;
        },
        30000,
        150,
      );
      const framesMs = Date.now() - killedAt;
      await poll(
        'red on the output after the stall window',
        async () => (Date.now() - killedAt > 2600 && near(await c.sample(), RED) ? true : undefined),
        30000,
        100,
      );
      assert.ok(sawCurrent > 0);
      assert.equal(await c.json('/sources/current'), { id: 'red', name: 'Red Test', sourceKind: 'live', type: 'live' });
      assert.match(s.logs(), /"msg":"ffmpeg exited"[^\n]*SIGKILL|SIGKILL[^\n]*"msg":"ffmpeg exited"/, 'the exit is logged with its signal');
      assert.equal(await childPids(s.proc.pid!, RED_PATTERN), [fresh], 'one ffmpeg for the input, no leftover');
      await sweep();
      assert.equal(c.serverErrors, []);
      return `ffmpeg pid ${old} SIGKILLed; new ffmpeg after ${restartMs} ms, fresh frames after ${framesMs} ms; red on the output past the stall window; the input stayed current`;
    },
    c,
  ));

test('media files deleted and truncated while current: the server keeps serving, another source selects; no 5xx', () =>
  report.run(
    'media-deleted-truncated',
    async () => {
      c.serverErrors.length = 0; // one test's failure is its own, not the next one's
      const yellow = await c.post('/inputs/file/select', { name: 'Yellow Loop' });
      assert.is(yellow.status, 200, yellow.text);
      const yellowId = yellow.json().current.id;
      assert.ok(near(await c.sample(), YELLOW));
      await rm(join(media, 'Clips', 'Yellow Loop.mp4'));
      const deletedAt = Date.now();
      await poll(
        'the deleted file leaving /sources',
        async () => {
          await sweep();
          const cur = await c.json('/sources/current');
          assert.is(cur.id, yellowId, 'a vanished file stays current until replaced');
          return (await fileItems()).some((f) => f.id === yellowId) ? undefined : true;
        },
        30000,
        200,
      );
      const dropMs = Date.now() - deletedAt;
      assert.not.ok(
        (await browseFiles()).some((n) => n.id === yellowId),
        'browse drops it too',
      );
      assert.is((await c.post('/inputs/file/select', { id: yellowId })).status, 404, 'the deleted file is no longer selectable');

      const cyan = await c.post('/inputs/file/select', { name: 'cyan clip' });
      assert.is(cyan.status, 200, cyan.text);
      const cyanId = cyan.json().current.id;
      assert.ok(near(await c.sample(), CYAN));
      const file = join(media, 'Clips', 'Cyan Clip.mp4');
      const size = (await stat(file)).size;
      const logMark = s.logs().length;
      await truncate(file, Math.floor(size / 3));
      const truncatedAt = Date.now();
      await poll(
        'the truncated file leaving /sources',
        async () => {
          await sweep();
          assert.is((await c.json('/sources/current')).id, cyanId);
          return (await fileItems()).some((f) => f.id === cyanId) ? undefined : true;
        },
        30000,
        200,
      );
      const truncDropMs = Date.now() - truncatedAt;
      // Give ffmpeg time to run into the cut-off part (the clip is read at its own rate) while the surface keeps polling.
      const until = Date.now() + 3000;
      while (Date.now() < until) {
        await sweep();
        await sleep(200);
      }
      assert.is(s.proc.exitCode, null, 'the server is still running');
      const ffmpegExits = s
        .logs()
        .slice(logMark)
        .split('\n')
        .filter((l) => l.includes('"msg":"ffmpeg exited"')).length;
      const still = await c.post('/inputs/file/select', { name: 'magenta still' });
      assert.is(still.status, 200, still.text);
      assert.ok(near(await c.sample(), MAGENTA), 'the newly selected file drives the output');
      const gen = await c.post('/sources/select', { id: 'source:solid_color' });
      assert.is(gen.status, 200, gen.text);
      await sweep();
      assert.equal(c.serverErrors, [], 'no 5xx anywhere');
      return `current video deleted (dropped from /sources after ${dropMs} ms, stayed current) and another truncated to a third (dropped after ${truncDropMs} ms; ffmpeg exits logged after the cut: ${ffmpegExits}); /sources/current kept answering, a still and a generator selected afterwards; no 5xx`;
    },
    c,
  ));

test('media root removed and re-created with files: browse and /sources drop them, then pick them up again', () =>
  report.run(
    'media-root-recreated',
    async () => {
      c.serverErrors.length = 0; // one test's failure is its own, not the next one's
      await rm(media, { recursive: true, force: true });
      const removedAt = Date.now();
      await poll(
        'files gone from /sources and browse',
        async () => {
          await sweep();
          return (await fileItems()).length === 0 && (await browseFiles()).length === 0 ? true : undefined;
        },
        30000,
        200,
      );
      const goneMs = Date.now() - removedAt;
      const browseRoot = await c.get('/browse?path=/files');
      assert.is(browseRoot.status, 200, 'the files folder still answers with the root gone');
      assert.equal(browseRoot.json().items, []);
      // Re-created from the fixtures: the files the previous test deleted and truncated come back whole.
      await copyTree(fixtures, media);
      const backAt = Date.now();
      const files = await poll(
        'files back in /sources',
        async () => {
          const f = await fileItems();
          return f.length === 3 ? f : undefined;
        },
        30000,
        200,
      );
      const backMs = Date.now() - backAt;
      assert.equal(files.map((f) => f.name).sort(), ['Cyan Clip', 'Yellow Loop', 'magenta still']);
      const nodes = await browseFiles();
      assert.equal(nodes.map((n) => n.id).sort(), files.map((f) => f.id).sort(), 'browse shows the same files');
      const r = await c.post('/inputs/file/select', { name: 'Yellow Loop' });
      assert.is(r.status, 200, r.text);
      assert.ok(near(await c.sample(), YELLOW), 'a re-created file plays');
      assert.equal(c.serverErrors, []);
      return `root removed: files gone from /sources and browse after ${goneMs} ms; re-created: back after ${backMs} ms, playable`;
    },
    c,
  ));

test.run();
