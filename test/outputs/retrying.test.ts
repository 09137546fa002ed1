// An RTMP output whose target refuses connections stays `retrying` with a `lastError`, counting each restart of
// its ffmpeg, while the render keeps producing frames and the API keeps answering. No timing thresholds: only that
// things keep moving.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, req, waitUntil, freePort, refused } from '../helpers/server.js';

test('an unreachable RTMP target: retrying with lastError, restarts counted, render and API unaffected', async () => {
  const server = await startServer({
    config: {
      live: { test: [{ id: 'red', name: 'Red', pattern: 'color=c=red:size=320x180:rate=30' }], streams: [], v4l2: { enabled: false } },
    },
  });
  try {
    const api = (p: string): string => `${server.base}/api/v1${p}`;
    const status = async () => {
      const r = await req('GET', api('/status'));
      assert.is(r.status, 200);
      return r.json();
    };
    assert.is((await req('POST', api('/sources/select'), { body: { id: 'red' } })).status, 200);
    const port = await freePort();
    assert.ok(await refused(port), 'nothing listens on the target port');
    const added = await req('POST', api('/outputs/add'), { body: { kind: 'stream', name: 'cdn', url: `rtmp://127.0.0.1:${port}/live/x` } });
    assert.is(added.status, 200, added.text);
    const id = added.json().current.id as string;
    const output = async () => ((await req('GET', api('/outputs'))).json().items as Array<Record<string, any>>).find((o) => o.id === id)!;

    const framesBefore = (await status()).render.frames as number;
    // Restarts 1 and 2 come after the 1 s and 2 s backoffs; every poll is also an API call that must answer.
    let o: Record<string, any> = {};
    await waitUntil(async () => (o = await output()).restarts >= 2, 60000, 250);
    await waitUntil(async () => (o = await output()).state === 'retrying', 30000, 100);
    assert.type(o.lastError, 'string');
    assert.ok(o.lastError.length > 0);
    const s = await status();
    assert.ok(s.render.frames > framesBefore, `render frames advance: ${framesBefore} → ${s.render.frames}`);
    assert.ok(s.render.running, 'render running');
    assert.is(s.outputs.running, 0);
    // Still moving after more retries.
    const restarts = o.restarts as number;
    const frames = s.render.frames as number;
    await waitUntil(async () => (await output()).restarts > restarts, 60000, 250);
    assert.ok((await status()).render.frames > frames, 'render frames keep advancing while the output retries');
    assert.is((await output()).state === 'running', false);
  } finally {
    await server.cleanup();
  }
});

test.run();
