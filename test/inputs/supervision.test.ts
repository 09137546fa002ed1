// Ingest supervision over real HTTP: a media file on the program whose ffmpeg hangs (SIGSTOP) is replaced by the
// stall watchdog, and an ingest worker that dies is restarted with the file reopened; in both cases the file's
// frames (alternating red and blue) flow on the output again without any request but reads.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFile } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startServer, req, tempDir, waitUntil, sampleOutput, type TestServer } from '../helpers/server.js';
import { near } from '../helpers/images.js';
import { alive, childPids } from '../hardening/faults-common.js';

const run = promisify(execFile);
const RED: [number, number, number] = [255, 0, 0];
const BLUE: [number, number, number] = [0, 0, 255];
const FILE = 'Flip Flop.mp4';
let s: TestServer;
let work = '';
const api = (p: string): string => `${s.base}/api/v1${p}`;

const readers = (): Promise<number[]> => childPids(s.proc.pid!, FILE);

/** Waits until the output has shown both colours of the file since the call: its frames are flowing. */
async function flowing(what: string): Promise<void> {
  const seen = { red: false, blue: false };
  await waitUntil(
    async () => {
      const px = (await sampleOutput(s.base))[0]!;
      if (near(px, RED)) seen.red = true;
      if (near(px, BLUE)) seen.blue = true;
      return seen.red && seen.blue;
    },
    40000,
    50,
  ).catch(() => {
    throw new Error(`${what}: the file's frames do not flow on the output (seen ${JSON.stringify(seen)})`);
  });
}

test.before(async () => {
  work = await tempDir('vjd-supervision-');
  const media = join(work, 'library');
  await mkdir(media);
  // Half a second of red, half a second of blue, looped by the reader.
  await run('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'color=c=red:s=160x120:r=25:d=0.5',
    '-f',
    'lavfi',
    '-i',
    'color=c=blue:s=160x120:r=25:d=0.5',
    '-filter_complex',
    '[0:v][1:v]concat=n=2:v=1[v]',
    '-map',
    '[v]',
    '-pix_fmt',
    'yuv420p',
    join(media, FILE),
  ]);
  s = await startServer({
    dataDir: join(work, 'data'),
    config: { media: { roots: [media] }, live: { test: [], streams: [], v4l2: { enabled: false } } },
  });
  await waitUntil(async () => (await req('GET', api('/sources'))).json().items.some((i: any) => i.sourceKind === 'file'), 30000);
  const sel = await req('POST', api('/inputs/file/select'), { body: { name: 'Flip Flop' }, timeoutMs: 20000 });
  assert.is(sel.status, 200, sel.text);
  await flowing('after the select');
});

test.after(async () => {
  await s?.cleanup();
  await rm(work, { recursive: true, force: true });
});

test('a media file whose ffmpeg hangs is killed by the stall watchdog and replaced', async () => {
  const [hung, ...more] = await readers();
  assert.ok(hung !== undefined && more.length === 0, 'one ffmpeg reads the file');
  process.kill(hung, 'SIGSTOP');
  try {
    await waitUntil(async () => (await readers()).some((p) => p !== hung), 60000, 250);
    await waitUntil(() => !alive(hung), 20000, 100);
  } finally {
    if (alive(hung)) process.kill(hung, 'SIGKILL');
  }
  await flowing('after the watchdog');
  assert.ok(s.logs().includes('ffmpeg stalled; restarting it'));
});

test('a dead ingest worker is restarted and the program file comes back on the same output', async () => {
  // A reader restarted mid-file hands over to a looping one at its end, so two can overlap for a moment: wait for
  // the one that stays.
  let before: number[] = [];
  await waitUntil(async () => (before = await readers()).length === 1, 20000, 100);
  const current = (await req('GET', api('/sources/current'))).json();
  const r = await req('POST', api('/_test/kill-ingest'), { body: {} });
  assert.is(r.status, 200, r.text);
  assert.is(r.json().killed, true);
  await waitUntil(async () => (await readers()).some((p) => !before.includes(p)), 30000, 100);
  await flowing('after the worker restart');
  await waitUntil(async () => (await readers()).length === 1, 20000, 100).catch(() => {
    throw new Error('one ffmpeg reads the file again');
  });
  assert.equal((await req('GET', api('/sources/current'))).json(), current);
  assert.ok(s.logs().includes('ingest worker exited unexpectedly; restarting it'));
});

test.run();
