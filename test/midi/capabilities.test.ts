// GET /capabilities names the MIDI routes' feature `midi` whether or not MIDI is on: a client finds GET /midi and
// POST /midi/learn there (and GET /midi says whether MIDI is enabled).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { req, startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;

test.before(async () => {
  s = await startServer({ config: { render: { width: 64, height: 48, fps: 20 } } });
});

test.after(async () => {
  await s?.cleanup();
});

test('the midi feature is listed once with MIDI off, and its routes answer', async () => {
  const caps = (await req('GET', `${s.base}/api/v1/capabilities`, { timeoutMs: 20_000 })).json();
  assert.equal(
    caps.features.filter((f: string) => f === 'midi'),
    ['midi'],
  );
  assert.is(new Set(caps.features).size, caps.features.length, 'each feature once');
  const midi = await req('GET', `${s.base}/api/v1/midi`, { timeoutMs: 20_000 });
  assert.equal([midi.status, midi.json().enabled], [200, false]);
});

test.run();
