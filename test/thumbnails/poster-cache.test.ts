// Poster cache against real ffmpeg: sizes, colors, hits, invalidation, shared extraction, limits and failures.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { PNG } from 'pngjs';
import { PosterCache, type PosterMedia } from '../../src/thumbnails/poster-cache.js';
import { near } from '../helpers/images.js';

const log = pino({ level: 'silent' });
const root = await mkdtemp(join(tmpdir(), 'vjd-posters-'));
const src = join(root, 'src');
let dirs = 0;
const freshDir = (): string => join(root, `cache-${++dirs}`, 'posters');

function ffmpeg(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile('ffmpeg', ['-hide_banner', '-nostdin', '-v', 'error', '-y', ...args], { timeout: 60_000 }, (err, _o, stderr) =>
      err ? reject(new Error(`ffmpeg: ${stderr}`)) : resolve(),
    );
  });
}

const encoders = await new Promise<string>((r) => execFile('ffmpeg', ['-hide_banner', '-encoders'], (_e, out) => r(String(out))));
const codec = /\blibx264\b/.test(encoders) ? ['-c:v', 'libx264', '-preset', 'veryfast'] : ['-c:v', 'mpeg4', '-q:v', '3'];
const video = (graph: string, out: string, extra: string[] = []) =>
  ffmpeg(['-f', 'lavfi', '-i', graph, ...extra, ...codec, '-pix_fmt', 'yuv420p', join(src, out)]);

await mkdir(src);
await Promise.all([
  video('color=c=red:s=320x240:r=25:d=2', 'red43.mp4'),
  video('color=c=lime:s=640x360:r=25:d=2', 'green169.mp4'),
  // Anamorphic: 720x576 stored, shown 1047x576 (16:11 pixels).
  video('color=c=red:s=720x576:r=25:d=1', 'anamorphic.mp4', ['-vf', 'setsar=16/11']),
  video('color=c=yellow:s=320x240:r=25:d=0.2', 'short.mp4'),
  ffmpeg(['-f', 'lavfi', '-i', 'color=c=blue:s=800x400', '-frames:v', '1', join(src, 'blue.png')]),
  writeFile(join(src, 'corrupt.mp4'), randomBytes(64 * 1024)),
]);

let ids = 0;
async function media(file: string, kind: 'video' | 'still', duration?: number): Promise<PosterMedia> {
  const st = await stat(join(src, file));
  const id = `media-${(++ids).toString(16).padStart(16, '0')}`;
  return { id, path: join(src, file), size: st.size, mtimeMs: st.mtimeMs, kind, ...(duration !== undefined ? { duration } : {}) };
}

async function decode(path: string): Promise<PNG> {
  return PNG.sync.read(await readFile(path));
}
function center(png: PNG): number[] {
  const i = ((png.height >> 1) * png.width + (png.width >> 1)) * 4;
  return [png.data[i]!, png.data[i + 1]!, png.data[i + 2]!];
}
const listing = async (dir: string) => (await readdir(dir)).sort();

test('posters fit 512 with the source aspect, never upscaled, in the source color', async () => {
  const cache = new PosterCache({ dir: freshDir(), log });
  const cases: Array<[string, 'video' | 'still', number | undefined, number, number, number[]]> = [
    ['red43.mp4', 'video', 2, 320, 240, [255, 0, 0]],
    ['green169.mp4', 'video', 2, 512, 288, [0, 255, 0]],
    ['blue.png', 'still', undefined, 512, 256, [0, 0, 255]],
    ['short.mp4', 'video', 0.2, 320, 240, [255, 255, 0]],
  ];
  for (const [file, kind, duration, w, h, rgb] of cases) {
    const p = await cache.get(await media(file, kind, duration));
    assert.is(`${p.width}x${p.height}`, `${w}x${h}`, file);
    const png = await decode(p.path);
    assert.is(`${png.width}x${png.height}`, `${w}x${h}`, `${file} header matches pixels`);
    assert.ok(near(center(png), rgb), `${file} center ${center(png)} vs ${rgb}`);
  }
});

test('sample aspect ratio is applied: 720x576 at 16:11 shows as 1047x576, fitted to 512x282', async () => {
  const p = await new PosterCache({ dir: freshDir(), log }).get(await media('anamorphic.mp4', 'video', 1));
  assert.is(p.width, 512);
  assert.ok(Math.abs(p.height - 282) <= 1, `height ${p.height}`);
});

test('a second get is a hit: same file, untouched, no ffmpeg needed', async () => {
  const dir = freshDir();
  const cache = new PosterCache({ dir, log });
  const m = await media('red43.mp4', 'video', 2);
  const first = await cache.get(m);
  const before = (await stat(first.path)).mtimeMs;
  await new Promise((r) => setTimeout(r, 20));
  const second = await cache.get(m);
  assert.equal(second, first);
  assert.is((await stat(first.path)).mtimeMs, before);
  assert.equal(cache.stats(), { hits: 1, misses: 1, extracting: 0, entries: 1 });
  // A new instance (restart) with no usable ffmpeg still answers from disk.
  const restarted = new PosterCache({ dir, log, ffmpeg: join(root, 'no-such-ffmpeg') });
  assert.equal(await restarted.get(m), first);
  assert.equal(restarted.stats(), { hits: 1, misses: 0, extracting: 0, entries: 1 });
});

test('a touched source gets a new poster and the old one is removed', async () => {
  const dir = freshDir();
  const cache = new PosterCache({ dir, log });
  const m = await media('short.mp4', 'video', 0.2);
  const old = await cache.get(m);
  const t = new Date(Date.now() + 5000);
  await utimes(m.path, t, t);
  const fresh = await cache.get({ ...m, mtimeMs: (await stat(m.path)).mtimeMs });
  assert.is.not(fresh.path, old.path);
  assert.equal(await listing(dir), [fresh.path.slice(dir.length + 1)]);
  assert.is(cache.stats().entries, 1);
});

test('concurrent gets share one extraction; at most `concurrency` ffmpeg processes run', async () => {
  const cache = new PosterCache({ dir: freshDir(), log });
  const m = await media('green169.mp4', 'video', 2);
  const all = await Promise.all(Array.from({ length: 6 }, () => cache.get(m)));
  assert.ok(all.every((p) => p.path === all[0]!.path));
  assert.is(cache.stats().misses, 1);

  // A wrapper that records how many extractions overlap, then runs the real ffmpeg.
  const busy = join(root, 'busy');
  const wrapper = join(root, 'counting-ffmpeg.sh');
  await writeFile(
    wrapper,
    `#!/bin/sh\nmkdir -p ${busy}\ntouch ${busy}/$$\nls ${busy} | wc -l >> ${busy}.log\nsleep 0.3\nrm ${busy}/$$\nexec ffmpeg "$@"\n`,
  );
  await chmod(wrapper, 0o755);
  const limited = new PosterCache({ dir: freshDir(), log, ffmpeg: wrapper, concurrency: 2 });
  const jobs = await Promise.all(['red43.mp4', 'green169.mp4', 'short.mp4', 'red43.mp4'].map((f) => media(f, 'video', 1)));
  const running = Promise.all(jobs.map((j) => limited.get(j)));
  await new Promise((r) => setTimeout(r, 150));
  assert.is(limited.stats().extracting, 4);
  await running;
  const seen = (await readFile(`${busy}.log`, 'utf8')).trim().split('\n').map(Number);
  assert.is(seen.length, 4);
  assert.is(Math.max(...seen), 2);
  assert.equal(limited.stats(), { hits: 0, misses: 4, extracting: 0, entries: 4 });
});

test('ids that are not media ids reject before the filesystem is touched', async () => {
  const dir = freshDir();
  const cache = new PosterCache({ dir, log });
  const m = await media('red43.mp4', 'video', 2);
  for (const id of ['../etc', 'media-0123456789abcdef/../../x', 'media-0123456789ABCDEF', 'media-0123', '']) {
    await cache.get({ ...m, id }).then(
      () => assert.unreachable(`accepted ${id}`),
      (err: Error) => assert.match(err.message, /invalid media id/),
    );
  }
  await cache.get({ ...m, size: Number.NaN }).then(
    () => assert.unreachable('accepted a NaN size'),
    (err: Error) => assert.match(err.message, /invalid size/),
  );
  await stat(dir).then(
    () => assert.unreachable('cache folder was created'),
    (err: NodeJS.ErrnoException) => assert.is(err.code, 'ENOENT'),
  );
});

test("a corrupt file rejects with ffmpeg's last error line and leaves no temp files", async () => {
  const dir = freshDir();
  const cache = new PosterCache({ dir, log });
  const err = await cache.get(await media('corrupt.mp4', 'video', 2)).then(
    () => null,
    (e: Error) => e,
  );
  assert.ok(err instanceof Error);
  assert.match(err.message, /ffmpeg failed: .+/);
  assert.not.match(err.message, /\n/);
  assert.equal(await listing(dir), []);
  assert.equal(cache.stats(), { hits: 0, misses: 1, extracting: 0, entries: 0 });
});

test('a seek past the real end (duration overstated) retries from the start', async () => {
  const p = await new PosterCache({ dir: freshDir(), log }).get(await media('short.mp4', 'video', 60));
  assert.is(`${p.width}x${p.height}`, '320x240');
  assert.ok(near(center(await decode(p.path)), [255, 255, 0]));
});

test('maxEntries keeps the newest posters', async () => {
  const dir = freshDir();
  const cache = new PosterCache({ dir, log, maxEntries: 2 });
  const made = [];
  for (const f of ['red43.mp4', 'blue.png', 'short.mp4']) {
    made.push(await cache.get(await media(f, f.endsWith('.png') ? 'still' : 'video', 1)));
    await new Promise((r) => setTimeout(r, 15));
  }
  assert.is(cache.stats().entries, 2);
  assert.equal(
    await listing(dir),
    made
      .slice(1)
      .map((p) => p.path.slice(dir.length + 1))
      .sort(),
  );
});

test('a hung ffmpeg is killed at the timeout; damaged and stale files are cleaned up', async () => {
  const dir = freshDir();
  const hang = join(root, 'hang-ffmpeg.sh');
  await writeFile(hang, '#!/bin/sh\nexec sleep 30\n');
  await chmod(hang, 0o755);
  const started = Date.now();
  const err = await new PosterCache({ dir, log, ffmpeg: hang, timeoutMs: 300 }).get(await media('red43.mp4', 'video', 2)).then(
    () => null,
    (e: Error) => e,
  );
  assert.match(String(err?.message), /killed after 300 ms/);
  assert.ok(Date.now() - started < 5000);
  assert.equal(await listing(dir), []);

  // A poster cut short by a crash, and a temp file of a dead process: neither survives the next start.
  const m = await media('blue.png', 'still');
  const name = `${m.id}-${m.size}-${Math.trunc(m.mtimeMs)}.png`;
  await writeFile(join(dir, name), '');
  await writeFile(join(dir, `.${name}.999999999.abcd1234.tmp`), 'partial');
  const cache = new PosterCache({ dir, log });
  const p = await cache.get(m);
  assert.is(`${p.width}x${p.height}`, '512x256');
  assert.equal(await listing(dir), [name]);
  assert.equal(cache.stats(), { hits: 0, misses: 1, extracting: 0, entries: 1 });
});

test('a pipe under a poster name is removed, not opened the blocking way, and the poster made again', async () => {
  const dir = freshDir();
  const m = await media('blue.png', 'still');
  const name = `${m.id}-${m.size}-${Math.trunc(m.mtimeMs)}.png`;
  await mkdir(dir, { recursive: true });
  execFileSync('mkfifo', [join(dir, name)]);
  // A generous deadline: the old open() of the pipe never returned.
  const p = await Promise.race([
    new PosterCache({ dir, log }).get(m),
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the poster of a pipe never came')), 60_000).unref()),
  ]);
  assert.is(`${p.width}x${p.height}`, '512x256');
  assert.ok((await stat(p.path)).isFile(), "a regular poster took the pipe's place");
});

test.after(async () => {
  await rm(root, { recursive: true, force: true });
});

test.run();
