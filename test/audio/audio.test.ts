// Audio over real HTTP with real ffmpeg: bands of low and high tones, onsets of a click track, none and unknown
// selections, a killed audio ffmpeg and a crashed audio worker coming back without touching the picture, a failing
// input retried, and the selection kept over a restart.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdir, readFile } from 'node:fs/promises';
import { startServer, req, tempDir, waitUntil, type TestServer } from '../helpers/server.js';

let s: TestServer;
let dataDir: string;
const api = (p: string): string => `${s.base}/api/v1${p}`;
const get = (p: string) => req('GET', api(p));
const post = (p: string, body: unknown) => req('POST', api(p), { body });

const config = {
  audio: {
    inputs: [
      { id: 'low', name: 'Tone 80 Hz', kind: 'test', source: 'sine=frequency=80:sample_rate=48000' },
      { id: 'high', name: 'Tone 8 kHz', kind: 'test', source: 'sine=frequency=8000:sample_rate=48000' },
      { id: 'click', name: 'Click', kind: 'test', source: "aevalsrc='if(lt(mod(t,0.5),0.03),0.8*sin(2*PI*1000*t),0)':s=48000" },
      { id: 'broken', name: 'Broken', kind: 'test', source: 'sine=nope=3' },
    ],
    input: null,
  },
};

const levels = async (): Promise<Record<string, number>> => (await get('/audio/levels')).json();

/** Waits until the levels satisfy `ok`; on a miss the last reading is in the message. */
async function levelsBecome(what: string, ok: (l: Record<string, number>) => boolean): Promise<Record<string, number>> {
  let last: Record<string, number> = {};
  try {
    await waitUntil(async () => ok((last = await levels())), 30_000, 100);
  } catch {
    assert.unreachable(`levels never became ${what}; last ${JSON.stringify(last)}`);
  }
  return last;
}

/** The pids of the server's audio ffmpeg children (found by their PCM output format). */
async function audioFfmpegPids(): Promise<number[]> {
  const out: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = await readFile(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== s.proc.pid) continue;
      const cmd = (await readFile(`/proc/${name}/cmdline`, 'utf8')).split('\0');
      if (cmd.includes('f32le')) out.push(Number(name));
    } catch {
      // the process ended while it was read
    }
  }
  return out;
}

test.before(async () => {
  dataDir = await tempDir();
  s = await startServer({ config, dataDir });
});

test.after(async () => {
  await s?.cleanup();
});

test('no input at first: the inputs are listed, nothing runs, levels read 0', async () => {
  const a = (await get('/audio')).json();
  assert.equal(
    a.inputs.map((i: any) => [i.id, i.kind, i.available]),
    [
      ['low', 'test', true],
      ['high', 'test', true],
      ['click', 'test', true],
      ['broken', 'test', true],
    ],
  );
  assert.is(a.current, null);
  assert.is(a.state, 'stopped');
  assert.is(a.levels.level, 0);
  assert.equal(await audioFfmpegPids(), []);
  const st = (await get('/status')).json();
  assert.equal([st.audio.input, st.audio.state], [null, 'stopped']);
});

test('an 80 Hz tone reads bass high and high low, and a steady tone gives no onsets', async () => {
  const r = await post('/audio/select', { id: 'low' });
  assert.is(r.status, 200, r.text);
  assert.equal(r.json(), { success: true, current: 'low' });
  const l = await levelsBecome('bass-heavy', (v) => v.bass! > 0.8 && v.high! < 0.1 && v.level! > 0.5);
  assert.ok(l.lowMid! < 0.5, `lowMid ${l.lowMid}`);
  const a = (await get('/audio')).json();
  assert.equal([a.current, a.state], ['low', 'running']);
  const st = (await get('/status')).json();
  assert.equal([st.audio.input, st.audio.state], ['low', 'running']);
  // /status rounds the hop time to 0.1 ms (a fast box analyses a hop in less); the levels carry it whole.
  assert.ok(st.audio.hopMs >= 0, `hopMs ${st.audio.hopMs}`);
  assert.ok((await levels()).hopMs! > 0, 'the analysis time per hop is measured');
  // Hops keep coming while the count of onsets stays put.
  const before = await levels();
  await waitUntil(async () => (await levels()).hops! > before.hops! + 200, 30_000);
  const after = await levels();
  assert.ok(after.onsets! - before.onsets! <= 1, `a steady tone gave ${after.onsets! - before.onsets!} onsets`);
});

test('an 8 kHz tone, selected by name, reads the reverse', async () => {
  const r = await post('/audio/select', { name: 'tone 8 KHZ' });
  assert.is(r.status, 200, r.text);
  assert.is(r.json().current, 'high');
  await levelsBecome('treble-heavy', (v) => v.high! > 0.8 && v.bass! < 0.1);
});

test('a 120 BPM click track gives onsets, about two a second', async () => {
  assert.is((await post('/audio/select', { id: 'click' })).status, 200);
  await waitUntil(async () => (await get('/audio')).json().state === 'running', 30_000);
  const first = (await levels()).onsets!;
  await levelsBecome('six onsets further', (v) => v.onsets! >= first + 6);
});

test('a killed audio ffmpeg is retried, its levels come back, and the picture keeps rendering', async () => {
  let pids: number[] = [];
  await waitUntil(async () => (pids = await audioFfmpegPids()).length === 1, 30_000);
  // Selecting the running input again keeps its process.
  assert.is((await post('/audio/select', { id: 'click' })).status, 200);
  assert.equal(await audioFfmpegPids(), pids);
  const frames0 = (await get('/status')).json().render.frames;
  process.kill(pids[0]!, 'SIGKILL');
  await waitUntil(async () => (await get('/audio')).json().state === 'retrying', 30_000, 20);
  await waitUntil(async () => {
    const now = await audioFfmpegPids();
    return now.length === 1 && now[0] !== pids[0];
  }, 30_000);
  await waitUntil(async () => (await get('/audio')).json().state === 'running', 30_000);
  const first = (await levels()).onsets!;
  await levelsBecome('onsets again', (v) => v.onsets! >= first + 3);
  const st = (await get('/status')).json();
  assert.ok(st.render.frames > frames0, `render frames ${frames0} -> ${st.render.frames}`);
  assert.ok(st.render.fps > 0, `render fps ${st.render.fps}`);
});

test('an input whose ffmpeg fails is retried, says why, and reads 0', async () => {
  assert.is((await post('/audio/select', { id: 'broken' })).status, 200);
  let a: any = {};
  await waitUntil(async () => (a = (await get('/audio')).json()).state === 'retrying', 30_000, 50);
  assert.is(a.current, 'broken');
  assert.match(a.message, /nope/);
  const l = await levels();
  assert.equal([l.level, l.bass, l.lowMid, l.highMid, l.high], [0, 0, 0, 0, 0]);
  assert.is((await get('/status')).json().audio.state, 'retrying');
  // Retried with backoff: the restart count grows while the input stays selected.
  await waitUntil(async () => (await get('/audio')).json().restarts >= 2, 30_000);
  assert.is((await get('/audio')).json().current, 'broken');
});

test('a crashed audio worker is restarted and the input comes back', async () => {
  assert.is((await post('/audio/select', { id: 'low' })).status, 200);
  await levelsBecome('bass-heavy', (v) => v.bass! > 0.8);
  const hops0 = (await levels()).hops!;
  const r = await post('/_test/kill-audio', {});
  assert.is(r.json().killed, true);
  // The restarted worker's hops add to the same block.
  await levelsBecome('bass-heavy again', (v) => v.hops! > hops0 + 100 && v.bass! > 0.8);
  const a = (await get('/audio')).json();
  assert.equal([a.current, a.state], ['low', 'running']);
  await waitUntil(async () => (await audioFfmpegPids()).length === 1, 30_000);
});

test('select none detaches: levels read 0 and the ffmpeg ends', async () => {
  const r = await post('/audio/select', { id: 'none' });
  assert.is(r.status, 200, r.text);
  assert.equal(r.json(), { success: true, current: null });
  const l = await levels();
  assert.equal([l.level, l.bass, l.lowMid, l.highMid, l.high], [0, 0, 0, 0, 0]);
  const a = (await get('/audio')).json();
  assert.equal([a.current, a.state], [null, 'stopped']);
  await waitUntil(async () => (await audioFfmpegPids()).length === 0, 30_000);
});

test('unknown input is 404 ITEM_NOT_FOUND, an empty body 400', async () => {
  const r = await post('/audio/select', { id: 'nope' });
  assert.is(r.status, 404);
  const b = r.json();
  assert.is(b.code, 'ITEM_NOT_FOUND');
  assert.ok(b.details.available.includes('low') && b.details.available.includes('none'));
  assert.is((await post('/audio/select', {})).status, 400);
  assert.is((await post('/audio/select', { id: 'x'.repeat(600) })).status, 400);
  assert.is((await get('/audio')).json().current, null);
});

test('the selection survives a restart', async () => {
  assert.is((await post('/audio/select', { id: 'high' })).status, 200);
  await s.stop();
  s = await startServer({ config, dataDir });
  assert.is((await get('/audio')).json().current, 'high');
  await levelsBecome('treble-heavy after the restart', (v) => v.high! > 0.8);
});

test.run();
