// Stream outputs with the same settings share one encoder: one libx264 ffmpeg for two UDP targets, both decoded;
// a target that refuses or whose process is killed fails alone while the other keeps receiving frames. A recording
// with the same settings copies that encode into its file (unless config recordings.shareEncoder is false).
import { createServer } from 'node:net';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, req, waitUntil, type TestServer } from '../helpers/server.js';
import { childPids } from '../hardening/faults-common.js';
import { freeUdpPort, meanRgb, probe, receive, receiveUdp } from './media.js';

let server: TestServer;
const api = (p: string): string => `${server.base}/api/v1${p}`;
const post = (p: string, body: unknown) => req('POST', api(p), { body });
const output = async (id: string) =>
  ((await req('GET', api('/outputs'))).json().items as Array<Record<string, any>>).find((o) => o.id === id)!;
const encoders = async () => (await req('GET', api('/status'))).json().outputs.encoders as Array<{ id: string; outputs: string[] }>;
/** vjd's encoding ffmpeg children (a remux target copies, it never runs libx264). */
const encoderPids = () => childPids(server.proc.pid!, 'libx264');
const same = { kind: 'stream', width: 160, height: 90, fps: 15 };
const isRed = (frame: Buffer): boolean => {
  const [r, g, b] = meanRgb(frame);
  return r > 200 && g < 50 && b < 50;
};

/** A TCP port nothing listens on: connecting to it is refused. */
function refusingPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

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

test('two udp streams with the same settings run one encoder, and both receivers decode the program', async () => {
  const [pa, pb] = [await freeUdpPort(), await freeUdpPort()];
  const a = await post('/outputs/add', { ...same, name: 'a', url: `udp://127.0.0.1:${pa}` });
  const b = await post('/outputs/add', { ...same, name: 'b', url: `udp://127.0.0.1:${pb}` });
  assert.is(a.status, 200, a.text);
  assert.is(b.status, 200, b.text);
  const ids = [a.json().current.id as string, b.json().current.id as string];
  const [fa, fb] = await Promise.all([receiveUdp(pa, 160, 90, 3, { skip: 3 }), receiveUdp(pb, 160, 90, 3, { skip: 3 })]);
  for (const f of [...fa, ...fb]) assert.ok(isRed(f), `red frame, got ${meanRgb(f).map(Math.round)}`);
  await waitUntil(async () => (await output(ids[0]!)).state === 'running' && (await output(ids[1]!)).state === 'running', 20000);
  assert.is((await encoderPids()).length, 1, 'one encoder process for both');
  const shared = await encoders();
  assert.is(shared.length, 1);
  assert.equal([...shared[0]!.outputs].sort(), [...ids].sort());
  // A different bitrate is a different bitstream: its own encoder.
  const pc = await freeUdpPort();
  const c = await post('/outputs/add', { ...same, name: 'c', url: `udp://127.0.0.1:${pc}`, bitrateKbps: 900 });
  assert.is(c.status, 200, c.text);
  await waitUntil(async () => (await encoderPids()).length === 2, 20000);
  await waitUntil(async () => (await encoders()).length === 2, 20000);
  assert.is((await post('/outputs/remove', { id: c.json().current.id })).status, 200);
  await waitUntil(async () => (await encoderPids()).length === 1, 20000);
});

test("a refusing target and a killed target fail alone: the other stream's frames keep coming", async () => {
  const before = (await req('GET', api('/outputs'))).json().items as Array<{ id: string; target: string }>;
  const udp = before.find((o) => o.target.startsWith('udp://'))!;
  const udpPort = Number(new URL(udp.target).port);
  const other = before.find((o) => o.id !== udp.id && o.target.startsWith('udp://'))!;
  const tcpPort = await refusingPort();
  const t = await post('/outputs/add', { ...same, name: 'refused', url: `tcp://127.0.0.1:${tcpPort}` });
  assert.is(t.status, 200, t.text);
  const tcp = t.json().current.id as string;
  // The refused target restarts on its own, in the same shared encoder.
  await waitUntil(async () => (await output(tcp)).restarts >= 1, 30000);
  assert.is((await encoderPids()).length, 1, 'the refusing target joined the one encoder');
  assert.ok((await encoders())[0]!.outputs.includes(tcp));
  for (const f of await receiveUdp(udpPort, 160, 90, 3, { skip: 3 })) assert.ok(isRed(f), 'frames while a target refuses');

  // Kill the other udp target's process: it restarts alone; the encoder and this stream go on.
  const encoder = (await encoderPids())[0]!;
  const victim = await childPids(server.proc.pid!, `udp://127.0.0.1:${Number(new URL(other.target).port)}`);
  assert.is(victim.length, 1);
  process.kill(victim[0]!, 'SIGKILL');
  for (const f of await receiveUdp(udpPort, 160, 90, 3, { skip: 3 })) assert.ok(isRed(f), 'frames after another target died');
  await waitUntil(async () => (await output(other.id)).restarts >= 1, 20000);
  await waitUntil(async () => (await output(other.id)).state === 'running', 20000);
  assert.equal(await encoderPids(), [encoder], 'the encoder was never restarted');
  const [f] = await receiveUdp(Number(new URL(other.target).port), 160, 90, 1, { skip: 3 });
  assert.ok(isRed(f!), 'the restarted target carries the program again');
});

/** Records for a few seconds with the streams running; the file's picture, length and the encoders meanwhile. */
async function recordBeside(): Promise<{ encoders: number; sharedWith: string[]; id: string; file: string }> {
  const r = await post('/outputs/add', { kind: 'record', name: 'rec', width: 160, height: 90, fps: 15 });
  assert.is(r.status, 200, r.text);
  const id = r.json().current.id as string;
  await waitUntil(async () => (await output(id)).state === 'running', 20000);
  await new Promise((done) => setTimeout(done, 3000));
  const count = (await encoderPids()).length;
  const sharedWith = (await encoders()).find((e) => e.outputs.includes(id))?.outputs ?? [];
  assert.is((await post('/outputs/enabled', { id, enabled: false })).status, 200);
  await waitUntil(async () => (await output(id)).state === 'stopped', 20000);
  const file = join(server.dataDir, 'recordings', (await output(id)).target as string);
  assert.is((await post('/outputs/remove', { id })).status, 200);
  return { encoders: count, sharedWith, id, file };
}

test('a recording with the streams’ settings copies their encode: still one encoder, a red file that plays', async () => {
  const { encoders: n, sharedWith, id, file } = await recordBeside();
  assert.is(n, 1, 'the recording added no encoder');
  assert.ok(sharedWith.includes(id) && sharedWith.length >= 3, `one encoder feeds the streams and the recording: ${sharedWith}`);
  const p = await probe(file);
  assert.ok(p.frames >= 15 && p.width === 160 && p.height === 90, JSON.stringify(p));
  const [f] = await receive(file, 160, 90, 1, { skip: 5 });
  assert.ok(isRed(f!), `red in the file, got ${meanRgb(f!).map(Math.round)}`);
});

test('recordings.shareEncoder false: the same recording runs its own encoder', async () => {
  await server.cleanup();
  server = await startServer({
    config: {
      live: { test: [{ id: 'red', name: 'Red', pattern: 'color=c=red:size=320x180:rate=30' }], streams: [], v4l2: { enabled: false } },
      recordings: { shareEncoder: false },
    },
  });
  assert.is((await post('/sources/select', { id: 'red' })).status, 200);
  const pa = await freeUdpPort();
  assert.is((await post('/outputs/add', { ...same, name: 'a', url: `udp://127.0.0.1:${pa}` })).status, 200);
  const { encoders: n, sharedWith, file } = await recordBeside();
  assert.is(n, 2, 'the stream and the recording each encode');
  assert.equal(sharedWith, []);
  const [f] = await receive(file, 160, 90, 1, { skip: 5 });
  assert.ok(isRed(f!), 'red in the file');
});

test.run();
