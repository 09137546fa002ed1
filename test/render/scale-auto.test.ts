// render.scale "auto" against a running server: frames made slow by the test hook (their extra time follows the
// drawn pixel count, as a heavy chain's does) push the scale down until the frame rate recovers, the events
// `status` topic carries it, and once frames are cheap again the scale climbs back to 1.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { req, startServer, waitUntil, type TestServer } from '../helpers/server.js';
import { connectWs, wsUrl, type WsClient } from '../helpers/ws.js';

let s: TestServer;
const api = (p: string): string => `${s.base}/api/v1${p}`;
const render = async () => (await req('GET', api('/status'))).json().render;
/** Each slowed frame at full size takes at least this long: at most 1000 / SLOW_MS frames a second at scale 1. */
const SLOW_MS = 100;

test.before(async () => {
  s = await startServer({
    config: {
      render: { width: 320, height: 180, fps: 30, scale: 'auto', minScale: 0.25 },
      live: { test: [{ id: 'bars', name: 'Bars', pattern: 'smptehdbars=size=320x180:rate=30' }], streams: [], v4l2: { enabled: false } },
    },
  });
  assert.is((await req('POST', api('/sources/select'), { body: { id: 'bars' } })).status, 200);
});

test.after(async () => {
  await s?.cleanup();
});

/** Waits for `ok` on /status.render, with the last reading in the failure message. */
async function renderBecomes(what: string, ok: (r: any) => boolean, timeoutMs = 90000): Promise<any> {
  let last: any;
  try {
    await waitUntil(async () => ok((last = await render())), timeoutMs, 250);
  } catch {
    assert.unreachable(`${what}; last render status: ${JSON.stringify(last)}`);
  }
  return last;
}

test('auto: at 1 while frames keep their budget', async () => {
  const r = await renderBecomes('scale 1 at full size', (r) => r.scale === 1 && r.renderWidth === 320 && r.frames > 30);
  assert.is(r.width, 320);
});

test('auto: slow frames step the scale down in sixteenths and the frame rate recovers past what full size allows', async () => {
  let ws: WsClient | null = null;
  try {
    ws = await connectWs(wsUrl(s.base));
    await ws.next((m) => m.type === 'hello');
    ws.send({ type: 'subscribe', topics: ['status'] });
    await ws.next((m) => m.type === 'subscribed');
    const slow = await req('POST', api('/_test/slow-frames'), { body: { ms: SLOW_MS, frames: 10_000 } });
    assert.is(slow.status, 200, slow.text);
    // At scale 1 every frame takes SLOW_MS or more, so more frames a second than 1000 / SLOW_MS need a smaller scale.
    const r = await renderBecomes('scale down and fps past full size', (r) => r.scale < 1 && r.fps > (1000 / SLOW_MS) * 1.4);
    assert.ok(r.scale >= 0.25, `not below minScale: ${r.scale}`);
    assert.is(Math.round(r.scale * 16), r.scale * 16, `a sixteenth: ${r.scale}`);
    assert.is(r.renderWidth, Math.round(320 * r.scale));
    assert.is(r.width, 320);
    const ev = await ws.next((m) => m.type === 'event' && m.topic === 'status' && m.data.render.scale < 1, 20000);
    assert.is(ev.data.render.renderWidth, Math.round(320 * ev.data.render.scale));
  } finally {
    ws?.close();
  }
});

test('auto: once frames are cheap again the scale climbs back to 1', async () => {
  // One more slow frame replaces the long run: afterwards frames cost only their drawing.
  assert.is((await req('POST', api('/_test/slow-frames'), { body: { ms: 1, frames: 1 } })).status, 200);
  const r = await renderBecomes('scale back to 1', (r) => r.scale === 1 && r.renderWidth === 320);
  assert.is(r.renderHeight, 180);
});

test.run();
