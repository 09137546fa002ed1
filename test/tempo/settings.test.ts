// Audio settings and tempo persistence over HTTP: the gain and latency offset apply live and are validated, and the
// tempo source, manual BPM, range, offset and gain survive a restart on the same data dir.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, req, tempDir, waitUntil, type TestServer } from '../helpers/server.js';

const config = {
  audio: {
    // ffmpeg's sine is far below full scale: the automatic gain lifts it, a fixed gain of 2 does not.
    inputs: [{ id: 'quiet', name: 'Quiet 80 Hz', kind: 'test', source: 'sine=frequency=80:sample_rate=48000' }],
    input: 'quiet',
    offsetMs: -20,
  },
};
let s: TestServer;
let dataDir: string;
const get = (p: string) => req('GET', `${s.base}/api/v1${p}`);
const post = (p: string, body: unknown) => req('POST', `${s.base}/api/v1${p}`, { body });

async function levelBecomes(what: string, ok: (level: number) => boolean): Promise<void> {
  let last = -1;
  try {
    await waitUntil(async () => ok((last = (await get('/audio/levels')).json().level)), 30_000);
  } catch {
    assert.unreachable(`${what}: level ${last}`);
  }
}

test.before(async () => {
  dataDir = await tempDir();
  s = await startServer({ config, dataDir });
});

test.after(async () => {
  await s?.cleanup();
});

test('GET /audio shows the config offset and the automatic gain at a first start', async () => {
  const a = (await get('/audio')).json();
  assert.is(a.gain, null);
  assert.is(a.offsetMs, -20);
});

test('the gain applies live: a fixed gain keeps the quiet tone quiet, null lifts it again', async () => {
  await levelBecomes('the automatic gain lifts the tone', (l) => l > 0.5);
  const r = await post('/audio/settings', { gain: 2 });
  assert.is(r.status, 200, r.text);
  assert.equal(r.json(), { gain: 2, offsetMs: -20 });
  await levelBecomes('the fixed gain of 2 leaves it low', (l) => l > 0.05 && l < 0.3);
  assert.equal((await post('/audio/settings', { gain: null })).json(), { gain: null, offsetMs: -20 });
  await levelBecomes('back to the automatic gain', (l) => l > 0.5);
});

test('the offset reaches the tempo block the worker writes', async () => {
  const r = await post('/audio/settings', { offsetMs: 42 });
  assert.equal(r.json(), { gain: null, offsetMs: 42 });
  assert.is((await get('/audio')).json().offsetMs, 42);
});

test('settings are validated with the rule in the message', async () => {
  for (const body of [
    { offsetMs: 501 },
    { offsetMs: -501 },
    { offsetMs: 'x' },
    { gain: 0 },
    { gain: -1 },
    { gain: 'auto' },
    { gain: 2000 },
  ]) {
    const r = await post('/audio/settings', body);
    assert.is(r.status, 400, JSON.stringify(body));
    assert.match(r.json().message, '`offsetMs` a number from -500 to 500');
  }
  assert.equal((await get('/audio')).json().offsetMs, 42);
});

test('tempo source, manual BPM, range, offset and gain survive a restart', async () => {
  assert.is((await post('/tempo/bpm', { bpm: 133 })).status, 200);
  assert.is((await post('/tempo/range', { min: 80, max: 160 })).status, 200);
  assert.is((await post('/audio/settings', { gain: 3, offsetMs: 55 })).status, 200);
  await s.stop();
  s = await startServer({ config, dataDir });
  const t = (await get('/tempo')).json();
  assert.is(t.source, 'manual');
  assert.is(t.bpm, 133);
  assert.equal(t.range, { min: 80, max: 160 });
  const a = (await get('/audio')).json();
  assert.is(a.gain, 3);
  assert.is(a.offsetMs, 55);
  // The saved gain is in force in the worker, not only shown.
  await levelBecomes('the saved fixed gain of 3', (l) => l > 0.1 && l < 0.4);
  // The manual tempo is kept when another source was chosen before the restart.
  await post('/tempo/source', { source: 'auto' });
  await s.stop();
  s = await startServer({ config, dataDir });
  assert.is((await get('/tempo')).json().source, 'auto');
  assert.is((await post('/tempo/source', { source: 'manual' })).json().bpm, 133);
});

test.run();
