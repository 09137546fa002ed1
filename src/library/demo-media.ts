// First-run demo media: a few seamless loops and stills made with ffmpeg lavfi, published atomically as a whole folder.
import { execFile } from 'node:child_process';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import type { Logger } from '../log.js';
import { pidAlive } from '../util/pid-alive.js';

export interface DemoMediaResult {
  /** true when this call created the media folder. */
  created: boolean;
  dir: string;
  /** Absolute paths of the files made (empty when nothing was made). */
  files: string[];
}

interface DemoItem {
  rel: string;
  /** lavfi graph; every loop is periodic in its duration, so the last frame runs into the first. */
  graph: string;
  still: boolean;
}

const W = 640;
const H = 360;

const ITEMS: DemoItem[] = [
  { rel: 'Loops/Hue Bars.mp4', still: false, graph: `smptehdbars=s=${W}x${H}:r=30:d=5,hue=h=72*t` },
  {
    rel: 'Loops/Plasma.mp4',
    still: false,
    // Computed at a quarter size and scaled up: geq per pixel is the slow part on a 2-core box.
    graph: `nullsrc=s=160x90:r=30:d=5,geq=r='128+127*sin(X/9+2*PI*T/5)':g='128+127*sin(Y/7+4*PI*T/5)':b='128+127*sin((X+Y)/11-2*PI*T/5)',scale=${W}:${H}:flags=bicubic`,
  },
  {
    rel: 'Loops/Rings.mp4',
    still: false,
    graph: `nullsrc=s=320x180:r=30:d=4,geq=lum='128+127*sin(hypot(X-W/2\\,Y-H/2)/5-6*PI*T/4)':cb='128+60*sin(2*PI*T/4)':cr='128+60*cos(2*PI*T/4)',scale=${W}:${H}`,
  },
  { rel: 'Stills/Test Card.png', still: true, graph: `testsrc2=s=${W}x${H}:r=1` },
  {
    rel: 'Stills/Sunset.jpg',
    still: true,
    graph: `nullsrc=s=${W}x${H}:r=1,geq=r='255*(1-Y/H/2)':g='60+120*(Y/H)*(1-Y/H)*2':b='80+150*Y/H'`,
  },
];

const STEP_TIMEOUT_MS = 20_000;

function run(cmd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { timeout: STEP_TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024, killSignal: 'SIGKILL' }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${cmd} failed: ${String(stderr).trim().split('\n').pop() ?? err.message}`));
      else resolve(stdout);
    });
  });
}

async function videoCodecArgs(ffmpeg: string): Promise<string[]> {
  const encoders = await run(ffmpeg, ['-hide_banner', '-encoders']).catch(() => '');
  return /\blibx264\b/.test(encoders)
    ? ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-g', '30']
    : ['-c:v', 'mpeg4', '-q:v', '4', '-g', '30'];
}

/** Removes staging folders of earlier runs that died mid-way (their owner process is gone). */
async function removeStale(parent: string, prefix: string, log: Logger): Promise<void> {
  const names = await readdir(parent).catch(() => [] as string[]);
  for (const name of names) {
    const m = name.startsWith(prefix) ? /^(\d+)-[0-9a-f]+$/.exec(name.slice(prefix.length)) : null;
    if (!m) continue;
    const pid = Number(m[1]);
    if (pid === process.pid || pidAlive(pid)) continue;
    await rm(join(parent, name), { recursive: true, force: true }).catch(() => undefined);
    log.info({ dir: join(parent, name) }, 'removed an unfinished demo media folder');
  }
}

/**
 * Generates the demo media into `mediaDir` when that folder does not exist yet (first run), else does nothing.
 * Files are made in a hidden staging folder beside it and the folder is renamed into place at the end, so a
 * crash leaves either no media folder (the next start tries again) or a complete one; nothing is overwritten.
 */
export async function ensureDemoMedia(mediaDir: string, log: Logger, opts: { ffmpeg?: string } = {}): Promise<DemoMediaResult> {
  const none: DemoMediaResult = { created: false, dir: mediaDir, files: [] };
  const exists = await stat(mediaDir).then(
    () => true,
    (err: NodeJS.ErrnoException) => err.code !== 'ENOENT',
  );
  if (exists) return none;
  const ffmpeg = opts.ffmpeg ?? 'ffmpeg';
  const parent = dirname(mediaDir);
  const prefix = `.${basename(mediaDir)}.demo-`;
  await mkdir(parent, { recursive: true });
  await removeStale(parent, prefix, log);
  const staging = join(parent, `${prefix}${process.pid}-${randomBytes(4).toString('hex')}`);
  const started = performance.now();
  try {
    const codec = await videoCodecArgs(ffmpeg);
    const made: string[] = [];
    const one = async (item: DemoItem): Promise<void> => {
      const out = join(staging, item.rel);
      await mkdir(dirname(out), { recursive: true });
      const encode = item.still ? ['-frames:v', '1'] : [...codec, '-pix_fmt', 'yuv420p', '-movflags', '+faststart'];
      try {
        await run(ffmpeg, ['-hide_banner', '-nostdin', '-v', 'error', '-n', '-f', 'lavfi', '-i', item.graph, '-an', ...encode, out]);
        made.push(item.rel);
      } catch (err) {
        await rm(out, { force: true }).catch(() => undefined);
        log.warn({ file: item.rel, err: String(err) }, 'demo media item not generated');
      }
    };
    // Two at a time: the machine has two cores and ffmpeg's encoders are mostly single-threaded here.
    const queue = [...ITEMS];
    await Promise.all(
      [0, 1].map(async () => {
        for (let item = queue.shift(); item !== undefined; item = queue.shift()) await one(item);
      }),
    );
    if (made.length === 0) {
      await rm(staging, { recursive: true, force: true });
      return none;
    }
    try {
      await rename(staging, mediaDir);
    } catch (err) {
      // Someone created the media folder meanwhile: theirs wins, ours is dropped.
      await rm(staging, { recursive: true, force: true });
      log.info({ dir: mediaDir, err: String(err) }, 'media folder appeared during demo generation; demo media dropped');
      return none;
    }
    const files = made.sort().map((rel) => join(mediaDir, rel));
    log.info({ dir: mediaDir, files: made.length, ms: Math.round(performance.now() - started) }, 'demo media generated');
    return { created: true, dir: mediaDir, files };
  } catch (err) {
    await rm(staging, { recursive: true, force: true }).catch(() => undefined);
    log.warn({ dir: mediaDir, err: String(err) }, 'demo media not generated');
    return none;
  }
}
