// The leader's part of a show over a real mosquitto and three real servers: its tempo grid reaches the members,
// whose clocks then carry the same grid; a scene recall sent to the leader with `show: "all"` and `at: "nextBar"`
// goes out as one instant and every box switches on the first frame due at or after it; a member killed while the
// show moved on comes back, after a restart, on the show's scene.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rm } from 'node:fs/promises';
import { startBroker, type TestBroker } from '../helpers/mosquitto.js';
import { req, startServer, tempDir, waitUntil, type TestServer } from '../helpers/server.js';

const SHOW = 'tour';
const FPS = 30;
const PERIOD = 1000 / FPS;
let broker: TestBroker;
let a: TestServer;
let b: TestServer;
let c: TestServer;
let cDir = '';

const until = (cond: () => Promise<boolean> | boolean, ms = 45_000) => waitUntil(cond, ms, 100);
const get = async (s: TestServer, path: string) => (await req('GET', `${s.base}/api/v1${path}`)).json();
const post = (s: TestServer, path: string, body: unknown) => req('POST', `${s.base}/api/v1${path}`, { body, timeoutMs: 20_000 });
const current = async (s: TestServer): Promise<string> => (await get(s, '/sources/current')).id;

const config = (name: string, leader: boolean) => ({
  show: { name: SHOW, box: name, broker: { url: broker.url }, groups: ['screens'], leader },
  render: { width: 320, height: 180, fps: FPS },
});

/** Two scenes on a box: "one" plays plasma, "two" the checkerboard. */
async function scenes(s: TestServer): Promise<void> {
  for (const [name, source] of [
    ['one', 'source:plasma'],
    ['two', 'source:checkerboard'],
  ]) {
    assert.is((await post(s, '/sources/select', { id: source })).status, 200);
    assert.is((await post(s, '/scenes/save', { name })).status, 200);
  }
}

/** Where a grid puts the beat at instant `t`. */
const beatAt = (g: { bpm: number; refTime: number; refBeat: number }, t: number) => g.refBeat + ((t - g.refTime) * g.bpm) / 60_000;

test.before(async () => {
  try {
    broker = await startBroker();
    cDir = await tempDir('vjd-show-c-');
    // One after another: three servers starting at once on a loaded 2-core box can pass the start guard's time.
    a = await startServer({ config: config('a', true) });
    b = await startServer({ config: config('b', false) });
    c = await startServer({ dataDir: cDir, config: config('c', false) });
    await Promise.all([a, b, c].map(scenes));
    await until(async () => (await get(a, '/show')).boxes.filter((x: { online: boolean }) => x.online).length === 3);
  } catch (err) {
    // uvu does not print a failing hook's error.
    console.error('setup failed:', err);
    throw err;
  }
});

test.after(async () => {
  await Promise.all([a, b, c].map((s) => s?.cleanup()));
  await broker?.cleanup();
  if (cDir) await rm(cDir, { recursive: true, force: true });
});

test("the leader's tempo grid reaches the members: their clocks carry the same grid", async () => {
  assert.is((await post(a, '/tempo/bpm', { bpm: 128 })).status, 200);
  const t = Date.now();
  for (const s of [b, c]) {
    await until(async () => {
      const [mine, lead] = [(await get(s, '/show')).clock, (await get(a, '/show')).clock];
      return mine.following === 'a' && mine.grid.bpm === lead.grid.bpm && Math.abs(beatAt(mine.grid, t) - beatAt(lead.grid, t)) < 1e-6;
    });
    const tempo = await get(s, '/tempo');
    assert.is(tempo.bpm, 128);
    assert.is(tempo.source, 'manual');
  }
  assert.is((await get(a, '/show')).clock.role, 'leader');
});

test('a mirrored scene recall at the next bar: one instant for every box, each on its first frame due at or after it', async () => {
  // The tempo of the case before gives the grid nextBar is read on.
  const r = await post(a, '/scenes/recall', { name: 'two', show: 'all', at: 'nextBar' });
  assert.is(r.status, 202, r.text);
  const { mirrored } = r.json();
  assert.is(mirrored.target, 'all');
  const records: any[] = [];
  for (const s of [a, b, c]) {
    let rec: any;
    await until(async () => {
      rec = (await get(s, '/show/scheduled')).recent.find((x: any) => x.op === 'POST /api/v1/scenes/recall' && x.state !== 'running');
      return rec !== undefined;
    });
    assert.is(rec.state, 'applied', JSON.stringify(rec));
    records.push(rec);
    assert.is(await current(s), 'source:checkerboard');
  }
  // The leader sent the instant, not "nextBar": every box held the recall for the same one.
  assert.equal(new Set(records.map((x) => x.at)).size, 1, JSON.stringify(records));
  for (const rec of records) {
    const late = Date.parse(rec.appliedDueAt) - Date.parse(rec.at);
    assert.ok(late >= 0 && late < PERIOD * (1 + rec.lateFrames) + 1, JSON.stringify(rec));
  }
  const due = records.map((x) => Date.parse(x.appliedDueAt));
  console.log(
    `scene recall at ${records[0].at}: frames due ${due.map((d) => d - due[0]!).join(' / ')} ms from box a's; lateFrames ${records.map((x) => x.lateFrames).join(' / ')}`,
  );
});

test("a member killed while the show moved on comes back on the show's scene", async () => {
  c.proc.kill('SIGKILL');
  await until(async () => (await get(a, '/show')).boxes.find((x: { box: string }) => x.box === 'c')?.online === false);
  const r = await post(a, '/scenes/recall', { name: 'one', show: 'all' });
  assert.is(r.status, 202, r.text);
  for (const s of [a, b]) await until(async () => (await current(s)) === 'source:plasma');
  assert.equal((await get(a, '/show')).scenes, { all: { name: 'one' } });
  // c's own saved state still says scene "two": the retained show state brings it to "one".
  await c.stop();
  c = await startServer({ dataDir: cDir, config: config('c', false) });
  await until(async () => (await current(c)) === 'source:plasma');
  assert.ok(c.logs().includes('show scene recalled on connect'));
});

test.run();
