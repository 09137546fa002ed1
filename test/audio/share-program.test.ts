// The `program` audio input over real HTTP with real ffmpeg: a media file with an 80 Hz audio track on the program
// reads bass high; a file without a track, and a generator, read 0 with a sane state; a take back to the file
// brings its levels back. The file's one reader decodes both its picture and its audio track.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFile } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startServer, req, tempDir, waitUntil, type TestServer } from '../helpers/server.js';

const run = promisify(execFile);
let s: TestServer;
let work = '';
const api = (p: string): string => `${s.base}/api/v1${p}`;
const get = (p: string) => req('GET', api(p));
const post = (p: string, body: unknown) => req('POST', api(p), { body, timeoutMs: 20000 });

const levels = async (): Promise<Record<string, number>> => (await get('/audio/levels')).json();

async function levelsBecome(what: string, ok: (l: Record<string, number>) => boolean): Promise<Record<string, number>> {
  let last: Record<string, number> = {};
  try {
    await waitUntil(async () => ok((last = await levels())), 30_000, 100);
  } catch {
    assert.unreachable(`levels never became ${what}; last ${JSON.stringify(last)}`);
  }
  return last;
}

/** A few seconds of test pattern, with an 80 Hz tone as its audio track when `tone`. */
async function makeFile(path: string, tone: boolean): Promise<void> {
  const audio = tone ? ['-f', 'lavfi', '-i', 'sine=frequency=80:sample_rate=48000:duration=3'] : [];
  const codecs = tone ? ['-c:a', 'aac', '-shortest'] : [];
  await run('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=160x120:rate=15:duration=3',
    ...audio,
    '-pix_fmt',
    'yuv420p',
    ...codecs,
    path,
  ]);
}

test.before(async () => {
  work = await tempDir('vjd-share-program-');
  const media = join(work, 'library');
  await mkdir(media);
  await makeFile(join(media, 'tone.mp4'), true);
  await makeFile(join(media, 'mute.mp4'), false);
  s = await startServer({
    dataDir: join(work, 'data'),
    config: {
      media: { roots: [media] },
      live: { test: [], streams: [], v4l2: { enabled: false } },
      audio: { inputs: [{ id: 'prog', name: 'Program audio', kind: 'program' }], input: 'prog' },
    },
  });
  await waitUntil(async () => (await get('/sources')).json().items.filter((i: any) => i.sourceKind === 'file').length === 2, 30000);
});

test.after(async () => {
  await s?.cleanup();
  await rm(work, { recursive: true, force: true });
});

test('the program input is listed and selected; with a generator on the program it reads 0', async () => {
  const sel = await post('/sources/select', { id: 'source:solid_color' });
  assert.is(sel.status, 200, sel.text);
  const a = (await get('/audio')).json();
  assert.equal(
    a.inputs.map((i: any) => [i.id, i.kind, i.available]),
    [['prog', 'program', true]],
  );
  assert.is(a.current, 'prog');
  await waitUntil(async () => (await get('/audio')).json().state === 'running', 20000);
  const l = await levels();
  assert.equal([l.level, l.bass, l.high], [0, 0, 0]);
});

test('a media file with an 80 Hz track on the program: bass high, high low', async () => {
  const sel = await post('/inputs/file/select', { name: 'tone' });
  assert.is(sel.status, 200, sel.text);
  await levelsBecome('bass-heavy', (v) => v.bass! > 0.8 && v.high! < 0.1 && v.level! > 0.3);
  // The reason of the silence before (the program had no track) clears once the track's samples are read.
  let a: any = {};
  await waitUntil(async () => (a = (await get('/audio')).json()).message === null, 10000).catch(() =>
    assert.unreachable(`the silent reason stayed: ${JSON.stringify(a)}`),
  );
  assert.is(a.state, 'running');
});

test('a take to a file without audio: levels 0, no hops, state running with the reason; back: bass again', async () => {
  const sel = await post('/inputs/file/select', { name: 'mute' });
  assert.is(sel.status, 200, sel.text);
  const l = await levelsBecome('zero', (v) => v.level === 0 && v.bass === 0 && v.high === 0);
  let a: any = {};
  await waitUntil(async () => /no audio track/.test(String((a = (await get('/audio')).json()).message)), 10000).catch(() => {
    assert.unreachable(`the state never said why it is silent: ${JSON.stringify(a)}`);
  });
  assert.is(a.state, 'running');
  // The silent program source is still on the output, its picture untouched by the audio side.
  assert.is((await get('/sources/current')).json().name, 'mute');
  await new Promise((r) => setTimeout(r, 500));
  assert.is((await levels()).hops, l.hops, 'nothing is analysed while the program has no track');
  const back = await post('/inputs/file/select', { name: 'tone' });
  assert.is(back.status, 200, back.text);
  await levelsBecome('bass-heavy again', (v) => v.hops! > l.hops! && v.bass! > 0.8);
});

test.run();
