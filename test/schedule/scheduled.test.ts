// Operations scheduled to an instant (`at`) over real HTTP: a blackout 1.5 s ahead answers 202, waits in the list,
// changes the state and the output picture only after its instant, and its record shows the frame rule (due at or
// after `at`, late only by whole frames); cancel, the refusals of a bad `at`, and the beat forms on the tempo grid.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { req, sampleOutput, sleep, startServer, tempDir, waitUntil, type TestServer } from '../helpers/server.js';

const FPS = 30;
const PERIOD = 1000 / FPS;
/** The scheduler runs an operation this long before its instant at most (src/schedule/scheduler.ts LEAD_MS, with room). */
const LEAD = 300;

let s: TestServer;
const api = (p: string): string => `${s.base}/api/v1${p}`;
const get = async (p: string) => (await req('GET', api(p))).json();
const post = (p: string, body: unknown) => req('POST', api(p), { body, timeoutMs: 20000 });
const inMs = (ms: number): string => new Date(Date.now() + ms).toISOString();
const center = async (): Promise<number[]> => (await sampleOutput(s.base))[0]!;
const white = (p: number[]): boolean => p.slice(0, 3).every((v) => v > 200);
const black = (p: number[]): boolean => p.slice(0, 3).every((v) => v < 30);

function refused(r: { status: number; text: string; json(): any }, status: number, code: string): void {
  assert.is(r.status, status, r.text);
  assert.is(r.json().code, code, r.text);
}

async function recordOf(id: string): Promise<any> {
  let rec: any;
  await waitUntil(async () => {
    rec = (await get('/show/scheduled')).recent.find((r: any) => r.id === id);
    return rec !== undefined && rec.state !== 'running';
  }, 15000).catch(() => assert.unreachable(`no settled record of ${id}: ${JSON.stringify(rec)}`));
  return rec;
}

/** The frame rule: applied on a frame due at or after `at`, and late only by the frame slots it reports. */
function onItsFrame(rec: any): void {
  assert.is(rec.state, 'applied', JSON.stringify(rec));
  assert.ok(Number.isInteger(rec.appliedFrame), 'appliedFrame');
  assert.type(rec.lateFrames, 'number');
  const late = Date.parse(rec.appliedDueAt) - Date.parse(rec.at);
  assert.ok(late >= 0, `applied on a frame due ${late} ms before the instant`);
  // ISO instants carry whole milliseconds: one more for the rounding.
  assert.ok(late < PERIOD * (1 + rec.lateFrames) + 1, `due ${late} ms after the instant with lateFrames ${rec.lateFrames}`);
}

test.before(async () => {
  const dataDir = await tempDir();
  const presets = join(dataDir, 'presets');
  await mkdir(presets, { recursive: true });
  await writeFile(join(presets, 'white.json'), JSON.stringify({ name: 'White', source: 'solid_color', inputs: { color: [1, 1, 1, 1] } }));
  s = await startServer({ dataDir, config: { presets: { dirs: [presets] }, render: { width: 320, height: 180, fps: FPS } } });
  assert.is((await post('/sources/select', { id: 'preset:white' })).status, 200);
  await waitUntil(async () => white(await center()), 15000);
});

test.after(async () => {
  await s?.cleanup();
});

test('a blackout 1.5 s ahead answers 202, waits, and switches the state and the picture on its frame', async () => {
  const at = inMs(1500);
  const r = await post('/global/blackout', { enabled: true, at });
  assert.is(r.status, 202, r.text);
  const { scheduled } = r.json();
  assert.is(scheduled.op, 'POST /api/v1/global/blackout');
  assert.is(scheduled.at, at);
  assert.is(scheduled.requested, at);
  const list = await get('/show/scheduled');
  const waiting = list.waiting.find((w: any) => w.id === scheduled.id);
  assert.ok(waiting, JSON.stringify(list));
  assert.is(waiting.transport, 'http');
  // Read well before the instant (a loaded box may be slow to answer: only readings taken before the lead count).
  const before = await get('/global');
  const px = await center();
  if (Date.now() < Date.parse(at) - LEAD) {
    assert.is(before.blackout, false);
    assert.ok(white(px), `picture before the instant: ${px}`);
  }
  const rec = await recordOf(scheduled.id);
  onItsFrame(rec);
  assert.is(rec.status, 200);
  assert.is(rec.whole, true);
  assert.is((await get('/global')).blackout, true);
  assert.ok(black(await center()), 'picture after the instant');
  assert.not.ok((await get('/show/scheduled')).waiting.some((w: any) => w.id === scheduled.id));
  assert.is((await post('/global/blackout', { enabled: false })).status, 200);
  await waitUntil(async () => white(await center()), 10000);
});

test('a waiting operation can be cancelled and never runs; an unknown id is 404', async () => {
  const at = inMs(1500);
  const r = await post('/global/dimmer', { value: 0.25, at });
  assert.is(r.status, 202, r.text);
  const id = r.json().scheduled.id;
  const c = await post(`/show/scheduled/${id}/cancel`, {});
  assert.is(c.status, 200, c.text);
  assert.is(c.json().cancelled.id, id);
  refused(await post(`/show/scheduled/${id}/cancel`, {}), 404, 'ITEM_NOT_FOUND');
  refused(await post('/show/scheduled/nope/cancel', {}), 404, 'ITEM_NOT_FOUND');
  await sleep(Math.max(0, Date.parse(at) + 300 - Date.now()));
  assert.is((await get('/global')).dimmer, 1);
  assert.not.ok((await get('/show/scheduled')).recent.some((x: any) => x.id === id));
});

test('a past, too far or malformed at is refused with its code and changes nothing', async () => {
  refused(await post('/global/dimmer', { value: 0.5, at: inMs(-5000) }), 422, 'AT_IN_PAST');
  refused(await post('/global/dimmer', { value: 0.5, at: inMs(11 * 60_000) }), 422, 'AT_TOO_FAR');
  for (const at of ['tomorrow', '2030-01-01T00:00:00', 12345, { beat: 'x' }, { beat: 1, bar: 2 }, null, 'x'.repeat(100)]) {
    refused(await post('/global/dimmer', { value: 0.5, at }), 400, 'INVALID_AT');
  }
  // The body is still checked at once, with the usual error.
  refused(await post('/global/dimmer', { value: 7, at: inMs(1000) }), 400, 'INVALID_REQUEST');
  assert.equal((await get('/show/scheduled')).waiting, []);
  assert.is((await get('/global')).dimmer, 1);
});

test('the beat forms need a beat grid, then resolve to instants on it', async () => {
  refused(await post('/global/dimmer', { value: 0.9, at: 'nextBeat' }), 409, 'NO_BEAT_GRID');
  assert.is((await post('/tempo/bpm', { bpm: 120 })).status, 200);
  const { beatsPerBar } = await get('/tempo');
  const next = await post('/global/dimmer', { value: 0.9, at: 'nextBeat' });
  assert.is(next.status, 202, next.text);
  const beat = next.json().scheduled;
  assert.is(beat.requested, 'nextBeat');
  assert.ok(Number.isInteger(beat.beat));
  const ahead = await post('/global/dimmer', { value: 0.8, at: { beat: beat.beat + 8 } });
  assert.is(ahead.status, 202, ahead.text);
  const eight = ahead.json().scheduled;
  assert.equal(eight.requested, { beat: beat.beat + 8 });
  // Eight beats at 120 BPM; ISO instants carry whole milliseconds.
  assert.ok(Math.abs(Date.parse(eight.at) - Date.parse(beat.at) - 4000) <= 1, `${beat.at} → ${eight.at}`);
  assert.is((await post(`/show/scheduled/${eight.id}/cancel`, {})).status, 200);
  const bar = await post('/global/dimmer', { value: 0.7, at: 'nextBar' });
  assert.is(bar.status, 202, bar.text);
  const barOp = bar.json().scheduled;
  assert.is(barOp.beat % beatsPerBar, 0);
  assert.ok(Date.parse(barOp.at) >= Date.parse(beat.at));
  onItsFrame(await recordOf(beat.id));
  onItsFrame(await recordOf(barOp.id));
  // The bar comes on or after the beat, so its value is the one left.
  assert.is((await get('/global')).dimmer, 0.7);
});

test.run();
