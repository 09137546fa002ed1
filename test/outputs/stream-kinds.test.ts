// Stream outputs decoded by a real ffmpeg receiver on loopback: an effect reaches a UDP stream, an SRT stream with
// vjd as the listener (the receiver calls in), and a TCP stream with vjd as the caller (the receiver listens).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, req, waitUntil, freePort, type TestServer } from '../helpers/server.js';
import { freeUdpPort, meanRgb, receive, receiveUdp } from './media.js';
import { childPids } from '../hardening/faults-common.js';

let server: TestServer;
const api = (p: string): string => `${server.base}/api/v1${p}`;
const post = (p: string, body: unknown) => req('POST', api(p), { body });
const output = async (id: string) =>
  ((await req('GET', api('/outputs'))).json().items as Array<Record<string, any>>).find((o) => o.id === id)!;
const isRed = ([r, g, b]: number[]): boolean => r! > 200 && g! < 50 && b! < 50;
const isCyan = ([r, g, b]: number[]): boolean => r! < 50 && g! > 200 && b! > 200;

test.before(async () => {
  server = await startServer({
    config: {
      live: { test: [{ id: 'red', name: 'Red', pattern: 'color=c=red:size=320x180:rate=30' }], streams: [], v4l2: { enabled: false } },
    },
  });
  assert.is((await post('/sources/select', { id: 'red' })).status, 200);
});

test.after(async () => {
  await server?.cleanup();
});

/** Removes an added output and waits until its ffmpeg is gone, so the next test starts from a clean box. */
async function removeOutput(id: string, needle: string): Promise<void> {
  assert.is((await post('/outputs/remove', { id })).status, 200);
  await waitUntil(async () => (await childPids(server.proc.pid!, needle)).length === 0, 20000);
}

test('an effect is visible in a UDP stream: invert turns the red program cyan, and removing it brings red back', async () => {
  const port = await freeUdpPort();
  const added = await post('/outputs/add', { kind: 'stream', url: `udp://127.0.0.1:${port}`, width: 160, height: 90, fps: 15 });
  assert.is(added.status, 200, added.text);
  const id = added.json().current.id as string;
  for (const frame of await receiveUdp(port, 160, 90, 2, { skip: 5 }))
    assert.ok(isRed(meanRgb(frame)), `red before the effect, got ${meanRgb(frame).map(Math.round)}`);

  const fx = await post('/effects/add', { type: 'invert' });
  assert.is(fx.status, 200, fx.text);
  // Frames already in flight are still red: wait for a cyan one, then expect cyan to stay.
  let cyan = false;
  for (let attempt = 0; attempt < 10 && !cyan; attempt++) cyan = isCyan(meanRgb((await receiveUdp(port, 160, 90, 1, { skip: 2 }))[0]!));
  assert.ok(cyan, 'the inverted program reaches the stream');
  for (const frame of await receiveUdp(port, 160, 90, 3))
    assert.ok(isCyan(meanRgb(frame)), `stays cyan, got ${meanRgb(frame).map(Math.round)}`);

  assert.is((await post('/effects/remove', { type: 'invert' })).status, 200);
  let red = false;
  for (let attempt = 0; attempt < 10 && !red; attempt++) red = isRed(meanRgb((await receiveUdp(port, 160, 90, 1, { skip: 2 }))[0]!));
  assert.ok(red, 'red again once the effect is gone');
  await removeOutput(id, `udp://127.0.0.1:${port}`);
});

test('SRT with vjd as the listener: an ffmpeg caller connects and decodes the program', async () => {
  const port = await freeUdpPort();
  const url = `srt://127.0.0.1:${port}?mode=listener`;
  const added = await post('/outputs/add', { kind: 'stream', url, width: 160, height: 90, fps: 15 });
  assert.is(added.status, 200, added.text);
  const id = added.json().current.id as string;
  assert.is(added.json().current.target, url);
  // vjd's ffmpeg listens once it has its first frame; until a caller comes it holds the output in `starting`.
  await waitUntil(async () => (await childPids(server.proc.pid!, url)).length === 1, 20000);
  let frames: Buffer[] = [];
  await waitUntil(
    async () => {
      try {
        // A caller that came before the listener was up fails fast (connection refused or timed out): try again.
        frames = await receive(`srt://127.0.0.1:${port}?mode=caller&connect_timeout=3000`, 160, 90, 3, { skip: 5, killAfterS: 30 });
        return true;
      } catch {
        return false;
      }
    },
    60000,
    500,
  );
  for (const frame of frames) assert.ok(isRed(meanRgb(frame)), `red over SRT, got ${meanRgb(frame).map(Math.round)}`);
  await removeOutput(id, url);
});

test('TCP with vjd as the caller: it connects to a listening receiver, and retries until one listens', async () => {
  const port = await freePort();
  const url = `tcp://127.0.0.1:${port}`;
  // Nobody listens yet: the output retries with backoff and says why.
  const added = await post('/outputs/add', { kind: 'stream', url, width: 160, height: 90, fps: 15 });
  assert.is(added.status, 200, added.text);
  const id = added.json().current.id as string;
  await waitUntil(async () => {
    const o = await output(id);
    return o.state === 'retrying' && typeof o.lastError === 'string';
  }, 30000);
  // A receiver that listens (20 s for vjd's next attempt): vjd's next try connects and the program arrives.
  const frames = await receive(`tcp://127.0.0.1:${port}?listen=1&listen_timeout=40000`, 160, 90, 3, { skip: 5 });
  for (const frame of frames) assert.ok(isRed(meanRgb(frame)), `red over TCP, got ${meanRgb(frame).map(Math.round)}`);
  assert.ok((await output(id)).restarts >= 1, 'connected on a restart');
  await removeOutput(id, url);
});

test.run();
