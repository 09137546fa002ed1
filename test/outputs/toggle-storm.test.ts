// Enable/disable storms on a stream and a record output: whatever the order and overlap of the requests, the
// last one wins — a storm ending disabled leaves no ffmpeg running, a stopped state and a recording that no
// longer grows; a storm ending enabled leaves exactly one ffmpeg per output.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { startServer, req, sleep, waitUntil, type TestServer } from '../helpers/server.js';
import { childPids } from '../hardening/faults-common.js';
import { freeUdpPort } from './media.js';

let server: TestServer;
let port = 0;
const api = (p: string): string => `${server.base}/api/v1${p}`;
const IDS = ['storm-stream', 'storm-rec'] as const;

const setEnabled = async (id: string, enabled: boolean): Promise<void> => {
  const r = await req('POST', api('/outputs/enabled'), { body: { id, enabled } });
  assert.is(r.status, 200, r.text);
};
const outputs = async (): Promise<Array<Record<string, any>>> => (await req('GET', api('/outputs'))).json().items;
/** The ffmpeg children of vjd writing each output, found by what their command lines name. */
const children = async (): Promise<number[]> => [
  ...(await childPids(server.proc.pid!, `udp://127.0.0.1:${port}`)),
  ...(await childPids(server.proc.pid!, join(server.dataDir, 'recordings'))),
];
const recordingSizes = async (): Promise<Record<string, number>> => {
  const dir = join(server.dataDir, 'recordings');
  const out: Record<string, number> = {};
  for (const f of await readdir(dir).catch(() => [] as string[])) out[f] = (await stat(join(dir, f))).size;
  return out;
};

/** Awaited flips with no pause (a stop still in progress when the next start and stop arrive), then overlapping bursts. */
async function storm(last: boolean): Promise<void> {
  for (let i = 0; i < 25; i++) await Promise.all(IDS.map((id) => setEnabled(id, i % 2 === 0)));
  // Both enabled now: let ffmpeg come up, so the next stops have a running process to end.
  await waitUntil(async () => (await children()).length === IDS.length, 30000);
  for (let i = 0; i < 12; i++) for (const id of IDS) await setEnabled(id, i % 2 === 0);
  for (let burst = 0; burst < 6; burst++) {
    await Promise.all(Array.from({ length: 16 }, (_, i) => setEnabled(IDS[i % 2]!, (i + burst) % 3 !== 0)));
  }
  for (let i = 0; i < 3; i++) for (const id of IDS) await setEnabled(id, i % 2 === 0);
  for (const id of IDS) await setEnabled(id, last);
}

test.before(async () => {
  port = await freeUdpPort();
  server = await startServer({
    config: {
      live: { test: [{ id: 'red', name: 'Red', pattern: 'color=c=red:size=320x180:rate=30' }], streams: [], v4l2: { enabled: false } },
      outputs: [
        { id: IDS[0], kind: 'stream', enabled: false, url: `udp://127.0.0.1:${port}`, width: 64, height: 36, fps: 10 },
        { id: IDS[1], kind: 'record', enabled: false, width: 64, height: 36, fps: 10 },
      ],
    },
  });
});

test.after(async () => {
  await server?.cleanup();
});

test('a toggle storm ending disabled leaves no ffmpeg, state stopped and a recording that stops growing', async () => {
  await storm(false);
  await waitUntil(async () => (await outputs()).every((o) => o.state === 'stopped'), 30000);
  // Past the stop grace (ffmpeg is killed after it): anything still alive now was started after the last stop.
  await sleep(5000);
  assert.equal(await children(), [], 'no ffmpeg child left for the disabled outputs');
  const before = await recordingSizes();
  assert.ok(Object.keys(before).length > 0, 'the storm wrote recordings');
  await sleep(2500);
  assert.equal(await recordingSizes(), before, 'no recording grows after the last disable');
  assert.equal(await children(), []);
  for (const o of await outputs()) {
    assert.is(o.enabled, false, o.id);
    assert.is(o.state, 'stopped', o.id);
  }
  const status = (await req('GET', api('/status'))).json();
  assert.is(status.outputs.enabled, 0);
  assert.is(status.outputs.running, 0);
});

test('a toggle storm ending enabled leaves exactly one ffmpeg per output, running', async () => {
  await storm(true);
  await waitUntil(async () => (await outputs()).every((o) => o.state === 'running'), 30000);
  await sleep(5000);
  assert.is((await childPids(server.proc.pid!, `udp://127.0.0.1:${port}`)).length, 1, 'one stream ffmpeg');
  assert.is((await childPids(server.proc.pid!, join(server.dataDir, 'recordings'))).length, 1, 'one recording ffmpeg');
  for (const o of await outputs()) assert.equal([o.enabled, o.state], [true, 'running'], o.id);
  for (const id of IDS) await setEnabled(id, false);
  await waitUntil(async () => (await children()).length === 0, 30000);
  await waitUntil(async () => (await outputs()).every((o) => o.state === 'stopped'), 30000);
});

test.run();
