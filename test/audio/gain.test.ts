// Config audio.gain replaces the automatic gain: a quiet tone stays quiet instead of being lifted to full scale.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, req, waitUntil, type TestServer } from '../helpers/server.js';

let s: TestServer;

test.before(async () => {
  s = await startServer({
    config: {
      audio: {
        // ffmpeg's sine is far below full scale; the automatic gain would lift it to the top.
        inputs: [{ id: 'quiet', name: 'Quiet 80 Hz', kind: 'test', source: 'sine=frequency=80:sample_rate=48000' }],
        input: 'quiet',
        gain: 2,
      },
    },
  });
});

test.after(async () => {
  await s?.cleanup();
});

test('a fixed gain scales the raw values: the quiet tone reads well below full scale, in proportion', async () => {
  let l: Record<string, number> = {};
  await waitUntil(async () => (l = (await req('GET', `${s.base}/api/v1/audio/levels`)).json()).hops > 300, 30_000);
  // The tone's RMS doubled, not lifted to the top of the range.
  assert.ok(l.level! > 0.12 && l.level! < 0.24, `level ${l.level}`);
  assert.ok(l.bass! > 0.05 && l.bass! < 0.6, `bass ${l.bass}`);
  assert.ok(l.high! < 0.01, `high ${l.high}`);
  assert.is((await req('GET', `${s.base}/api/v1/audio`)).json().current, 'quiet');
});

test.run();
