// The v4l2 output without a loopback device (none can be loaded on a test machine): `failed` with a line that
// says what to load, checked again without restarts, while the API, the render and the other outputs go on;
// GET /capabilities lists `v4l2` only when a v4l2loopback node is in sysfs.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startServer, req, sleep, tempDir, waitUntil } from '../helpers/server.js';

const live = { test: [{ id: 'red', name: 'Red', pattern: 'color=c=red:size=160x90:rate=30' }], streams: [] };

/** A sysfs video4linux folder with one node; a v4l2loopback node carries `max_openers`, a camera does not. */
async function fakeSysfs(loopback: boolean): Promise<string> {
  const dir = await tempDir('vjd-sysfs-');
  await mkdir(join(dir, 'video10'));
  await writeFile(join(dir, 'video10', 'name'), loopback ? 'vjd\n' : 'USB Camera\n');
  if (loopback) await writeFile(join(dir, 'video10', 'max_openers'), '10\n');
  return dir;
}

test('a missing device: failed with a clear lastError, re-checked without restarts, API and render unharmed', async () => {
  const device = '/dev/video63';
  assert.not.ok(existsSync(device), `${device} must not exist for this test`);
  const server = await startServer({
    config: {
      render: { width: 160, height: 90, fps: 30 },
      live: { ...live, v4l2: { enabled: false, sysfsDir: await fakeSysfs(false) } },
      outputs: [
        { id: 'cam', kind: 'v4l2', enabled: true, device },
        { id: 'rec', kind: 'record', enabled: true, fps: 10 },
      ],
    },
  });
  try {
    const api = (p: string): string => `${server.base}/api/v1${p}`;
    const outputs = async () => (await req('GET', api('/outputs'))).json().items as Array<Record<string, any>>;
    await waitUntil(async () => (await outputs())[0]!.state === 'failed', 20000);
    const framesBefore = (await req('GET', api('/status'))).json().render.frames;
    // Past one re-check (every 5 s): still failed, never counted as an ffmpeg restart, logged once.
    await sleep(6000);
    const [cam, rec] = await outputs();
    assert.is(cam!.state, 'failed');
    assert.is(cam!.target, device);
    assert.match(cam!.lastError, /\/dev\/video63 does not exist: load v4l2loopback \(modprobe v4l2loopback video_nr=63/);
    assert.is(cam!.restarts, 0);
    assert.is(cam!.framesSent, 0);
    assert.is(server.logs().split('output target missing').length - 1, 1);
    assert.is(rec!.state, 'running');
    const status = (await req('GET', api('/status'))).json();
    assert.ok(status.render.frames > framesBefore, 'render keeps going');
    assert.ok(!(await req('GET', api('/capabilities'))).json().outputs.kinds.includes('v4l2'), 'a camera node is not a loopback');
    // Disabling it stops the checks; enabling starts over.
    assert.is((await req('POST', api('/outputs/enabled'), { body: { id: 'cam', enabled: false } })).status, 200);
    await waitUntil(async () => (await outputs())[0]!.state === 'stopped', 20000);
    assert.is((await req('POST', api('/outputs/enabled'), { body: { id: 'cam', enabled: true } })).status, 200);
    await waitUntil(async () => (await outputs())[0]!.state === 'failed', 20000);
    assert.is(server.proc.exitCode, null);
  } finally {
    await server.cleanup();
  }
});

test('capabilities list v4l2 when a loopback node exists', async () => {
  const server = await startServer({ config: { live: { ...live, v4l2: { enabled: false, sysfsDir: await fakeSysfs(true) } } } });
  try {
    assert.ok((await req('GET', `${server.base}/api/v1/capabilities`)).json().outputs.kinds.includes('v4l2'));
  } finally {
    await server.cleanup();
  }
});

test.run();
