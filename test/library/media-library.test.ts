// Tests for the media library: ffprobe classification, stable ids, probe cache across restarts, watching, demo media.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { pino } from 'pino';
import { MediaLibrary, mediaId, type MediaSnapshot } from '../../src/library/media-library.js';
import { classifyProbe, probeFile, ProbeError, type ProbeFn } from '../../src/library/probe.js';
import { ensureDemoMedia } from '../../src/library/demo-media.js';

const run = promisify(execFile);
const log = pino({ level: 'silent' });
let tmp = '';
let root = '';
let cacheFile = '';

async function ffmpeg(...args: string[]): Promise<void> {
  await run('ffmpeg', ['-hide_banner', '-nostdin', '-v', 'error', '-y', ...args]);
}

/** Wraps the real probe and counts calls (the cache is judged by how many it saves). */
function counting(): { probe: ProbeFn; calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    probe: (file) => {
      calls.push(file);
      return probeFile(file);
    },
  };
}

function library(probe: ProbeFn, over: Partial<ConstructorParameters<typeof MediaLibrary>[0]> = {}): MediaLibrary {
  return new MediaLibrary({ roots: [root], cacheFile, log, probe, debounceMs: 50, pollMs: 100, ...over });
}

/** Resolves with the first snapshot that satisfies `ok`, or fails after `ms`. */
async function changeUntil(lib: MediaLibrary, ok: (s: MediaSnapshot) => boolean, ms = 5000): Promise<MediaSnapshot> {
  const signal = AbortSignal.timeout(ms);
  for (;;) {
    const [snap] = (await once(lib, 'change', { signal })) as [MediaSnapshot];
    if (ok(snap)) return snap;
  }
}

const rels = (s: MediaSnapshot): string[] => s.files.map((f) => f.relPath).sort();

test.before(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'vjd-media-'));
  root = join(tmp, 'media');
  cacheFile = join(tmp, 'data', 'cache', 'probe-cache.json');
  await mkdir(join(root, 'Clips', 'Nested'), { recursive: true });
  await mkdir(join(root, 'Photos'), { recursive: true });
  await mkdir(join(root, '.hiddendir'), { recursive: true });
  await mkdir(join(root, 'Empty'), { recursive: true });
  await Promise.all([
    ffmpeg('-f', 'lavfi', '-i', 'testsrc2=s=96x64:r=10:d=1', '-c:v', 'mpeg4', '-pix_fmt', 'yuv420p', join(root, 'Clips', 'clip one.mp4')),
    ffmpeg('-f', 'lavfi', '-i', 'testsrc2=s=64x48:r=10:d=1', '-c:v', 'mpeg4', join(root, 'Clips', 'Nested', 'clip2.mkv')),
    ffmpeg('-f', 'lavfi', '-i', 'testsrc2=s=80x60', '-frames:v', '1', join(root, 'still.png')),
    ffmpeg('-f', 'lavfi', '-i', 'testsrc2=s=80x60', '-frames:v', '1', join(root, 'Photos', 'photo.jpg')),
    ffmpeg('-f', 'lavfi', '-i', 'sine=d=1', join(root, 'Photos', 'sound.wav')),
  ]);
  await writeFile(join(root, 'notes.txt'), 'a text file that ffprobe reads as tty art\n'.repeat(200));
  await writeFile(join(root, 'broken.mp4'), randomBytes(20_000));
  await copyFile(join(root, 'still.png'), join(root, '.hidden.png'));
  await copyFile(join(root, 'still.png'), join(root, '.hiddendir', 'inside.png'));
});

test.after(async () => {
  await rm(tmp, { recursive: true, force: true });
});

test('classifyProbe: text as tty, cover art, image formats, animated gif', () => {
  const v = (extra: object) => ({ codec_type: 'video', width: 640, height: 400, ...extra });
  assert.is(classifyProbe({ streams: [v({ codec_name: 'ansi' })], format: { format_name: 'tty', duration: '1.04' } }), null);
  assert.is(
    classifyProbe({ streams: [v({ codec_name: 'mjpeg', disposition: { attached_pic: 1 } })], format: { format_name: 'mp3' } }),
    null,
  );
  assert.is(classifyProbe({ streams: [{ codec_type: 'audio' }], format: { format_name: 'wav' } }), null);
  assert.is(classifyProbe({}), null);
  assert.is(classifyProbe({ streams: [v({ codec_name: 'png' })], format: { format_name: 'png_pipe' } })?.type, 'image');
  assert.is(
    classifyProbe({ streams: [v({ codec_name: 'mjpeg', duration: '0.04' })], format: { format_name: 'image2', duration: '0.04' } })?.type,
    'image',
  );
  assert.is(
    classifyProbe({ streams: [v({ codec_name: 'gif', nb_frames: '25' })], format: { format_name: 'gif', duration: '1' } })?.type,
    'video',
  );
  assert.is(classifyProbe({ streams: [v({ codec_name: 'gif', nb_frames: '1' })], format: { format_name: 'gif' } })?.type, 'image');
  const mjpegClip = classifyProbe({
    streams: [v({ codec_name: 'mjpeg', nb_frames: '25', avg_frame_rate: '25/1' })],
    format: { format_name: 'avi', duration: '1.0' },
  });
  assert.equal([mjpegClip?.type, mjpegClip?.fps, mjpegClip?.durationSec], ['video', 25, 1]);
});

test('scan: types, names, ids, folders; hidden, unsupported and corrupt files omitted', async () => {
  const c = counting();
  const lib = library(c.probe);
  await lib.start();
  const s = lib.snapshot();
  await lib.stop();
  assert.equal(rels(s), ['Clips/Nested/clip2.mkv', 'Clips/clip one.mp4', 'Photos/photo.jpg', 'still.png']);
  const byRel = new Map(s.files.map((f) => [f.relPath, f]));
  const clip = byRel.get('Clips/clip one.mp4');
  assert.equal([clip?.type, clip?.name, clip?.width, clip?.height, clip?.fps, clip?.rootIndex], ['video', 'clip one', 96, 64, 10, 0]);
  assert.ok(clip && clip.durationSec !== null && Math.abs(clip.durationSec - 1) < 0.2);
  assert.is(clip?.id, mediaId(root, 'Clips/clip one.mp4'));
  assert.match(clip?.id ?? '', /^media-[0-9a-f]{16}$/);
  assert.is(byRel.get('Clips/Nested/clip2.mkv')?.type, 'video');
  assert.equal([byRel.get('still.png')?.type, byRel.get('still.png')?.durationSec], ['image', null]);
  assert.is(byRel.get('Photos/photo.jpg')?.type, 'image');
  const r = s.roots[0];
  assert.equal(
    r?.folders.map((f) => f.name),
    ['Clips', 'Empty', 'Photos'],
  );
  assert.equal(
    r?.files.map((f) => f.name),
    ['still'],
  );
  assert.is(s.byId.get(clip?.id ?? '')?.relPath, 'Clips/clip one.mp4');
  assert.ok(Object.isFrozen(s) && Object.isFrozen(s.files) && Object.isFrozen(clip));
  // Every visible regular file is probed once; hidden ones never.
  assert.is(c.calls.length, 7);
  assert.ok(c.calls.every((p) => !p.includes('/.')));
});

test('probe cache: a restart re-probes nothing; ids stay the same; a changed file is probed again', async () => {
  const first = counting();
  const a = library(first.probe);
  await a.start();
  await a.stop();
  const saved = JSON.parse(await readFile(cacheFile, 'utf8')) as { entries: Record<string, unknown> };
  assert.is(Object.keys(saved.entries).length, 7);
  const second = counting();
  const b = library(second.probe);
  await b.start();
  assert.is(second.calls.length, 0);
  assert.equal(
    b
      .snapshot()
      .files.map((f) => f.id)
      .sort(),
    a
      .snapshot()
      .files.map((f) => f.id)
      .sort(),
  );
  await b.stop();
  await writeFile(join(root, 'notes.txt'), 'changed\n'.repeat(300));
  const third = counting();
  const c = library(third.probe);
  await c.start();
  await c.stop();
  assert.equal(third.calls, [join(root, 'notes.txt')]);
});

test('5000-file library: restart probes nothing; progress logged every 500 files', async () => {
  const big = join(tmp, 'big');
  for (let d = 0; d < 50; d++) {
    await mkdir(join(big, `set ${d}`), { recursive: true });
    await Promise.all(Array.from({ length: 100 }, (_, i) => writeFile(join(big, `set ${d}`, `clip${i}.mp4`), `${d}/${i}`)));
  }
  let calls = 0;
  // A fake ffprobe: the cache, not ffprobe, is under test here.
  const probe: ProbeFn = async () => {
    calls++;
    return { type: 'video', width: 64, height: 64, durationSec: 1, fps: 30, codec: 'h264', format: 'mp4' };
  };
  const lines: string[] = [];
  const captured = pino({ level: 'info' }, { write: (l: string) => void lines.push(l) });
  const opts = { roots: [big], cacheFile: join(tmp, 'big-cache.json'), log: captured, probe, concurrency: 8 };
  let t0 = performance.now();
  const a = new MediaLibrary(opts);
  await a.start();
  await a.stop();
  const coldMs = performance.now() - t0;
  assert.is(calls, 5000);
  assert.is(a.snapshot().files.length, 5000);
  assert.is(lines.filter((l) => l.includes('media scan progress')).length, 10);
  assert.ok(lines.some((l) => l.includes('media library scanned') && l.includes('"probed":5000')));
  calls = 0;
  t0 = performance.now();
  const b = new MediaLibrary(opts);
  await b.start();
  await b.stop();
  const warmMs = performance.now() - t0;
  assert.is(calls, 0);
  assert.equal(
    b.snapshot().files.map((f) => f.id),
    a.snapshot().files.map((f) => f.id),
  );
  console.log(`  5000 files: first scan ${coldMs.toFixed(0)} ms (fake probe), restart ${warmMs.toFixed(0)} ms with 0 probes`);
  await rm(big, { recursive: true });
});

test('probe cache: a corrupt cache file starts empty; transient probe failures are not cached', async () => {
  const other = join(tmp, 'data', 'cache', 'other.json');
  await writeFile(other, '{not json');
  let fail = true;
  const calls: string[] = [];
  const probe: ProbeFn = async (file) => {
    calls.push(file);
    if (fail && file.endsWith('still.png')) throw new ProbeError('ffprobe timed out');
    return probeFile(file);
  };
  const lib = library(probe, { cacheFile: other });
  await lib.start();
  assert.is(calls.length, 7);
  assert.not.ok(lib.snapshot().files.some((f) => f.relPath === 'still.png'));
  fail = false;
  await lib.rescan();
  await lib.stop();
  assert.equal(calls.slice(7), [join(root, 'still.png')]);
  assert.ok(lib.snapshot().files.some((f) => f.relPath === 'still.png'));
});

test('watching: a new file and a new folder emit change and show up', async () => {
  const lib = library(probeFile);
  await lib.start();
  const v0 = lib.snapshot().version;
  const waitFile = changeUntil(lib, (s) => s.files.some((f) => f.relPath === 'Photos/copy.png'));
  await copyFile(join(root, 'still.png'), join(root, 'Photos', 'copy.png'));
  const s1 = await waitFile;
  assert.ok(s1.version > v0);
  const waitFolder = changeUntil(lib, (s) => s.files.some((f) => f.relPath === 'New/Deeper/n.png'));
  await mkdir(join(root, 'New', 'Deeper'), { recursive: true });
  await copyFile(join(root, 'still.png'), join(root, 'New', 'Deeper', 'n.png'));
  await waitFolder;
  // The new folder is watched too: a second file in it is seen.
  const waitSecond = changeUntil(lib, (s) => s.files.some((f) => f.relPath === 'New/Deeper/m.png'));
  await copyFile(join(root, 'still.png'), join(root, 'New', 'Deeper', 'm.png'));
  await waitSecond;
  const waitGone = changeUntil(lib, (s) => !s.files.some((f) => f.relPath.startsWith('New/')));
  await rm(join(root, 'New'), { recursive: true });
  await waitGone;
  await lib.stop();
});

test('watching: a root removed and re-created is picked up again', async () => {
  const lib = library(probeFile);
  await lib.start();
  assert.ok(lib.snapshot().files.length > 0);
  const saved = join(tmp, 'saved.png');
  await copyFile(join(root, 'still.png'), saved);
  const gone = changeUntil(lib, (s) => s.files.length === 0 && s.roots[0]?.exists === false);
  await rm(root, { recursive: true });
  await gone;
  const back = changeUntil(lib, (s) => s.roots[0]?.exists === true && s.files.some((f) => f.relPath === 'again.png'));
  await mkdir(root);
  await copyFile(saved, join(root, 'again.png'));
  await back;
  const more = changeUntil(lib, (s) => s.files.some((f) => f.relPath === 'later.png'));
  await copyFile(saved, join(root, 'later.png'));
  await more;
  await lib.stop();
});

test('a root that does not exist yet appears later', async () => {
  const late = join(tmp, 'late-root');
  const lib = new MediaLibrary({ roots: [late], cacheFile, log, debounceMs: 50, pollMs: 100 });
  await lib.start();
  assert.equal([lib.snapshot().roots[0]?.exists, lib.snapshot().files.length], [false, 0]);
  const seen = changeUntil(lib, (s) => s.files.length === 1);
  await mkdir(late);
  await copyFile(join(tmp, 'saved.png'), join(late, 'x.png'));
  const s = await seen;
  assert.is(s.files[0]?.id, mediaId(late, 'x.png'));
  await lib.stop();
});

test('ensureDemoMedia: creates playable loops and stills once, never again', async () => {
  const dir = join(tmp, 'data2', 'media');
  const t0 = performance.now();
  const made = await ensureDemoMedia(dir, log);
  const ms = performance.now() - t0;
  console.log(`  demo media: ${made.files.length} files in ${ms.toFixed(0)} ms`);
  assert.ok(made.created);
  assert.ok(made.files.length >= 5);
  const types = await Promise.all(made.files.map((f) => probeFile(f)));
  assert.is(types.filter((t) => t?.type === 'video').length, 3);
  assert.is(types.filter((t) => t?.type === 'image').length, 2);
  for (const t of types)
    if (t?.type === 'video')
      assert.equal([t.width, t.height, t.durationSec !== null && t.durationSec >= 4 && t.durationSec <= 6], [640, 360, true]);
  assert.equal(await readdir(join(tmp, 'data2')), ['media']); // no staging folder left behind
  const again = await ensureDemoMedia(dir, log);
  assert.equal([again.created, again.files], [false, []]);
  const lib = new MediaLibrary({ roots: [dir], cacheFile: join(tmp, 'data2-cache.json'), log });
  await lib.start();
  await lib.stop();
  assert.equal(
    lib.snapshot().roots[0]?.folders.map((f) => f.name),
    ['Loops', 'Stills'],
  );
  assert.is(lib.snapshot().files.length, made.files.length);
});

test.run();
