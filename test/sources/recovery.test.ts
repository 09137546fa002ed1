// A current media file whose reader dies recovers by itself over real HTTP: its media root removed and its ffmpeg
// SIGKILLed, the output goes to the no-signal card (never a frozen frame); the root restored, the file's frames
// come back without any new request.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFile } from 'node:child_process';
import { copyFile, mkdir, readdir, readFile, readlink, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startServer, req, tempDir, waitUntil, type TestServer } from '../helpers/server.js';
import { decodeImage, near } from '../helpers/images.js';
import { childPids } from '../hardening/faults-common.js';

const run = promisify(execFile);
const commands = async (pids: number[]): Promise<string[]> =>
  Promise.all(pids.map(async (p) => (await readFile(`/proc/${p}/cmdline`, 'utf8').catch(() => 'ended')).split('\0').join(' ')));
const YELLOW: [number, number, number] = [255, 255, 0];
let s: TestServer;
let work = '';
let fixture = '';
let media = '';
const api = (p: string): string => `${s.base}/api/v1${p}`;
const get = async (p: string) => (await req('GET', api(p), { timeoutMs: 15000 })).json();

/**
 * The middle pixel of the output, read from GET /thumbnails/current (what a control surface sees); [] when a
 * loaded machine missed the 500 ms readback (503 PREVIEW_TIMEOUT), which matches no color.
 */
/** Whether the process has a file of this name open (a removed one reads `… (deleted)`). */
async function holdsFile(pid: number, name: string): Promise<boolean> {
  try {
    for (const fd of await readdir(`/proc/${pid}/fd`)) {
      const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
      if (target.includes(name)) return true;
    }
  } catch {
    // it ended while we looked
  }
  return false;
}

async function outputCenter(): Promise<number[]> {
  const r = await req('GET', api('/thumbnails/current?size=64'), { timeoutMs: 15000 });
  if (r.status === 503) return [];
  assert.is(r.status, 200, r.text.slice(0, 200));
  const img = decodeImage(r.body, r.headers['content-type'] as string);
  return img.at(img.width >> 1, img.height >> 1);
}

/** The no-signal card's middle band: a dark, flat grey (assets/internal/no_signal.fs), neither the file nor black. */
function noSignal(px: number[]): boolean {
  if (px.length < 3) return false;
  const [r, g, b] = px as [number, number, number];
  return Math.max(r, g, b) - Math.min(r, g, b) <= 12 && r >= 35 && r <= 110;
}

test.before(async () => {
  work = await tempDir('vjd-recovery-');
  fixture = join(work, 'Yellow Loop.mp4');
  media = join(work, 'library');
  await run('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'color=c=yellow:size=320x240:rate=25',
    '-t',
    '2',
    '-pix_fmt',
    'yuv420p',
    fixture,
  ]);
  await mkdir(media);
  await copyFile(fixture, join(media, 'Yellow Loop.mp4'));
  s = await startServer({
    dataDir: join(work, 'data'),
    config: { media: { roots: [media] }, live: { test: [], streams: [], v4l2: { enabled: false } } },
  });
  await waitUntil(async () => (await get('/sources')).items.some((i: any) => i.sourceKind === 'file'), 30000);
});

test.after(async () => {
  await s?.cleanup();
  await rm(work, { recursive: true, force: true });
});

test('a current file whose reader dies: no-signal card within seconds, its frames back by themselves once the file is back', async () => {
  const sel = await req('POST', api('/inputs/file/select'), { body: { name: 'Yellow Loop' }, timeoutMs: 15000 });
  assert.is(sel.status, 200, sel.text);
  const current = sel.json().current;
  await waitUntil(async () => near(await outputCenter(), YELLOW), 10000, 100);

  // ffmpeg keeps reading the file it has open; only a new ffmpeg finds it gone. Every process that still has the
  // file open is killed at each look: one spawned just before the removal (a stall's restart, the audio-less
  // respawn) would otherwise go on reading it and keep the file's frames coming. A new ffmpeg that has not opened
  // it is left to fail by itself: killed while starting, it would read as a crash and be restarted at once.
  await rm(media, { recursive: true, force: true });
  const killed: number[] = [];
  const killReaders = async (): Promise<void> => {
    for (const pid of await childPids(s.proc.pid!, 'Yellow Loop.mp4')) {
      if (!(await holdsFile(pid, 'Yellow Loop.mp4'))) continue;
      killed.push(pid);
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // it ended by itself meanwhile
      }
    }
  };
  await killReaders();
  assert.ok(killed.length >= 1, 'an ffmpeg reads the file');

  let last: number[] = [];
  await waitUntil(
    async () => {
      await killReaders();
      return noSignal((last = await outputCenter()));
    },
    // Readers respawned meanwhile (killed at each look) hold the picture until the retries' gaps grow past the
    // no-signal wait; on a loaded box that takes longer than on a quiet one.
    30000,
    200,
  ).catch(() => {
    const warnings = s
      .logs()
      .split('\n')
      .filter((l) => /"(warn|error)"/.test(l))
      .slice(-8)
      .join('\n');
    throw new Error(`the output did not go to the no-signal card; its middle is ${last}; killed ${killed}\n${warnings}`);
  });
  assert.equal(await get('/sources/current'), current, 'the file stays current while it has no frames');

  await mkdir(media);
  await copyFile(fixture, join(media, 'Yellow Loop.mp4'));
  // No request but reads: the retries (1 s doubling to 10 s) find the file again.
  await waitUntil(async () => near((last = await outputCenter()), YELLOW), 40000, 250).catch(() => {
    throw new Error(`the file's frames did not come back; the output's middle is ${last}`);
  });
  assert.equal(await get('/sources/current'), current);
  // The file coming back is also a new library entry: its probe (ffprobe) and poster (ffmpeg) name it for a moment,
  // so the count settles to the one reader rather than being read once.
  let readers: string[] = [];
  await waitUntil(async () => (readers = await commands(await childPids(s.proc.pid!, 'Yellow Loop.mp4'))).length === 1, 20000, 250).catch(
    () => {
      throw new Error(`not exactly one process reads the file again: ${readers.join(' | ')}`);
    },
  );
});

test.run();
