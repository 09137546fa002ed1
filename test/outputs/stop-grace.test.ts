// Stopping an output whose ffmpeg never finishes after its input closes (here: SIGSTOPped): the supervisor kills it
// once the grace has passed, the output reaches `stopped`, and enabling it again starts a fresh ffmpeg.
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, req, waitUntil } from '../helpers/server.js';
import { alive, childPids } from '../hardening/faults-common.js';

const config = {
  live: { test: [{ id: 'red', name: 'Red', pattern: 'color=c=red:size=320x180:rate=30' }], streams: [], v4l2: { enabled: false } },
  outputs: [{ id: 'rec', kind: 'record', enabled: false, width: 160, height: 90, fps: 10 }],
};

test('a hung output ffmpeg is killed after the stop grace; the output stops and starts again', async () => {
  const server = await startServer({ config });
  const api = (p: string): string => `${server.base}/api/v1${p}`;
  const output = async () => (await req('GET', api('/outputs'))).json().items[0];
  // The recording's ffmpeg is the only child that names the recordings folder (its own encoder, or its copy of a
  // shared encode).
  const recorders = (): Promise<number[]> => childPids(server.proc.pid!, join(server.dataDir, 'recordings'));
  let hung = 0;
  try {
    const on = await req('POST', api('/outputs/enabled'), { body: { id: 'rec', enabled: true } });
    assert.is(on.status, 200, on.text);
    await waitUntil(async () => (await output()).state === 'running', 30000);
    const pids = await recorders();
    assert.is(pids.length, 1, `one recorder: ${pids}`);
    hung = pids[0]!;
    // A stopped process neither reads the end of its input nor acts on SIGTERM; only SIGKILL ends it.
    process.kill(hung, 'SIGSTOP');
    const off = await req('POST', api('/outputs/enabled'), { body: { id: 'rec', enabled: false } });
    assert.is(off.status, 200, off.text);
    await waitUntil(async () => !alive(hung) && (await output()).state === 'stopped', 30000, 100);
    const again = await req('POST', api('/outputs/enabled'), { body: { id: 'rec', enabled: true } });
    assert.is(again.status, 200, again.text);
    await waitUntil(async () => (await output()).state === 'running', 30000);
    const now = await recorders();
    assert.is(now.length, 1, `one recorder again: ${now}`);
    assert.is.not(now[0], hung);
  } finally {
    if (hung && alive(hung)) process.kill(hung, 'SIGKILL');
    await server.cleanup();
  }
});

test.run();
