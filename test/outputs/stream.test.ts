// A UDP stream output decoded by a real ffmpeg receiver: size, colors of the program, blackout, and restart
// supervision when its ffmpeg is killed.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, req, waitUntil, type TestServer } from '../helpers/server.js';
import { freeUdpPort, meanRgb, receiveUdp } from './media.js';
import { childPids } from '../hardening/faults-common.js';

let server: TestServer;
const api = (p: string): string => `${server.base}/api/v1${p}`;
const post = (p: string, body: unknown) => req('POST', api(p), { body });
const output = async (id: string) =>
  ((await req('GET', api('/outputs'))).json().items as Array<Record<string, any>>).find((o) => o.id === id)!;

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

test('a udp stream carries the program: right size, red source red, blackout black', async () => {
  const port = await freeUdpPort();
  const receiving = receiveUdp(port, 160, 90, 3, { skip: 5 });
  const added = await post('/outputs/add', {
    kind: 'stream',
    name: 'lan',
    url: `udp://127.0.0.1:${port}?pkt_size=1316`,
    width: 160,
    height: 90,
    fps: 15,
  });
  assert.is(added.status, 200, added.text);
  const out = added.json().current;
  assert.is(out.kind, 'stream');
  assert.is(out.enabled, true);
  assert.is(out.target, `udp://127.0.0.1:${port}?pkt_size=1316`);
  assert.equal([out.width, out.height, out.fps], [160, 90, 15]);
  for (const frame of await receiving) {
    const [r, g, b] = meanRgb(frame);
    assert.ok(r > 200 && g < 50 && b < 50, `red program frame, got ${[r, g, b].map(Math.round)}`);
  }
  await waitUntil(async () => (await output(out.id)).state === 'running', 20000);
  const running = await output(out.id);
  assert.ok(running.framesSent > 0);
  assert.type(running.startedAt, 'string');

  assert.is((await post('/global/blackout', { enabled: true })).status, 200);
  // Frames in flight when blackout was set are still red; wait for a black one, then expect black to stay.
  let black = false;
  for (let attempt = 0; attempt < 10 && !black; attempt++) {
    const [frame] = await receiveUdp(port, 160, 90, 1, { skip: 2 });
    black = Math.max(...meanRgb(frame!)) < 10;
  }
  assert.ok(black, 'blackout reaches the stream');
  for (const frame of await receiveUdp(port, 160, 90, 3)) assert.ok(Math.max(...meanRgb(frame)) < 10, 'stays black');
  assert.is((await post('/global/blackout', { enabled: false })).status, 200);

  const status = (await req('GET', api('/status'))).json();
  assert.is(status.outputs.count, 1);
  assert.is(status.outputs.enabled, 1);
  assert.ok(status.outputs.framesSent > 0);
});

test("killing an output's ffmpeg restarts it and counts the restart", async () => {
  const port = await freeUdpPort();
  const added = await post('/outputs/add', { kind: 'stream', url: `udp://127.0.0.1:${port}`, width: 64, height: 36, fps: 10 });
  assert.is(added.status, 200, added.text);
  const id = added.json().current.id as string;
  let pids: number[] = [];
  await waitUntil(async () => (pids = await childPids(server.proc.pid!, `udp://127.0.0.1:${port}`)).length === 1, 20000);
  process.kill(pids[0]!, 'SIGKILL');
  await waitUntil(async () => (await output(id)).restarts === 1, 20000);
  await waitUntil(async () => (await output(id)).state === 'running', 20000);
  const after = await childPids(server.proc.pid!, `udp://127.0.0.1:${port}`);
  assert.is(after.length, 1);
  assert.is.not(after[0], pids[0]);
  // The received picture is back after the restart.
  const [frame] = await receiveUdp(port, 64, 36, 1, { skip: 3 });
  assert.ok(meanRgb(frame!)[0] > 200);
});

test.run();
