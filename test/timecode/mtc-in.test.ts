// MIDI timecode through the raw MIDI entry the device ports use (the test hook hands messages over): quarter frames
// sent at their real pace lock the clock to the sender's time; a full frame locates it; a full frame at another rate
// than timecode.fps and malformed SysEx change nothing and are counted.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { req, sleep, startServer, waitUntil, type TestServer } from '../helpers/server.js';
import { mtcFullFrame, mtcQuarterFrames } from '../helpers/timecode-packets.js';
import { toFrames, type Timecode } from '../../src/shared/smpte.js';

const PORT = 'Timecode Out';
let s: TestServer;
const api = (p: string): string => `${s.base}/api/v1${p}`;
const get = async (p: string) => (await req('GET', api(p), { timeoutMs: 20000 })).json();
const midi = async (messages: number[][]) => {
  const r = await req('POST', api('/_test/midi'), { body: { port: PORT, messages }, timeoutMs: 20000 });
  assert.is(r.status, 200, r.text);
};
const tc = (hours: number, minutes: number, seconds: number, frames: number): Timecode => ({ hours, minutes, seconds, frames });

test.before(async () => {
  s = await startServer({
    config: { render: { width: 64, height: 48, fps: 15 }, midi: { enabled: true }, timecode: { source: 'mtc', fps: 25 } },
  });
});

test.after(async () => {
  await s?.cleanup();
});

test('quarter frames at their pace lock the clock to the sender', async () => {
  const start = tc(1, 2, 3, 0);
  const all = mtcQuarterFrames(start, 25, 75);
  const t0 = Date.now();
  // Four quarter frames a frame, sent in one request per frame as their time comes.
  for (let f = 0; f < 75; f++) {
    const due = t0 + f * 40 - Date.now();
    if (due > 0) await sleep(due);
    await midi(all.slice(4 * f, 4 * f + 4));
  }
  let v = await get('/timecode');
  assert.is(v.rate, 25);
  assert.is(v.sender, PORT);
  // Once the sender stops, the clock runs on for the lock window and freewheel (120 + 500 ms, 15.5 frames) past the
  // last quarter frame's time, start + 75 frames, and holds there: a figure no slow request can move.
  await waitUntil(async () => (v = await get('/timecode')).state === 'lost', 10000);
  const want = toFrames(start, 25) + 75 + 15.5;
  assert.ok(Math.abs(v.frames - want) <= 2, `clock held at ${v.frames}, sender's last time + freewheel ${want}`);
  assert.ok(v.counts.readings >= 200, `${v.counts.readings} readings`);
});

test('a full frame locates; another rate and broken SysEx are counted and change nothing', async () => {
  await midi([mtcFullFrame(tc(2, 0, 0, 0), 25)]);
  let v = await get('/timecode');
  assert.ok(v.timecode.startsWith('02:00:00:'), v.timecode);
  const frames = v.frames;
  await midi([mtcFullFrame(tc(5, 0, 0, 0), 30)]);
  await midi([
    [0xf0, 0x7f, 0x7f, 0x01, 0x01, 0x38, 0x00, 0x00, 0x00, 0xf7],
    [0xf0, 0x7f, 0x7f, 0x01, 0x01, 0x21],
  ]);
  v = await get('/timecode');
  assert.is(v.counts.wrongRate, 1);
  assert.ok(v.counts.malformed >= 2, JSON.stringify(v.counts));
  assert.ok(v.frames >= frames && v.frames < frames + 50, `${v.frames} from ${frames}`);
  await waitUntil(async () => (await get('/timecode')).state === 'lost', 10000);
});

test.run();
