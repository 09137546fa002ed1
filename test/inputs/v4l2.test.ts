// Tests for the V4L2 provider against a fake sysfs/dev tree, the provider list from config, and ffmpeg's v4l2 errors.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULT_CONFIG, type Config } from '../../src/config/schema.js';
import { IngestClient } from '../../src/workers/ingest-client.js';
import { createLiveProviders, enumerateAll } from '../../src/inputs/live-inputs.js';
import type { IngestState } from '../../src/shared/protocol/ingest.js';
import { createV4l2Provider, enumerateV4l2, sanitizeId } from '../../src/inputs/v4l2-provider.js';

let root = '';
let sys = '';
let dev = '';

/** Adds a device: sysfs entry (name, index) and, unless `node` is false, its /dev node (a plain file here). */
async function addDevice(n: number, name: string, opts: { index?: number | null; node?: boolean } = {}): Promise<void> {
  const entry = join(sys, `video${n}`);
  await mkdir(entry, { recursive: true });
  await writeFile(join(entry, 'name'), `${name}\n`);
  if (opts.index !== null) await writeFile(join(entry, 'index'), `${opts.index ?? 0}\n`);
  if (opts.node !== false) await writeFile(join(dev, `video${n}`), '');
}

async function waitFor(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(25);
  }
}

test.before.each(async () => {
  root = await mkdtemp(join(tmpdir(), 'vjd-v4l2-'));
  sys = join(root, 'sys', 'class', 'video4linux');
  dev = join(root, 'dev');
  await mkdir(sys, { recursive: true });
  await mkdir(join(dev, 'v4l', 'by-id'), { recursive: true });
});

test.after.each(async () => {
  await rm(root, { recursive: true, force: true });
});

test('two cameras: stable by-id id where linked, videoN otherwise; metadata nodes skipped', async () => {
  await addDevice(0, 'HD Pro Webcam C920');
  await addDevice(1, 'HD Pro Webcam C920', { index: 1 }); // UVC metadata node of the same camera
  await addDevice(2, 'USB3 Capture');
  await symlink('../../video0', join(dev, 'v4l', 'by-id', 'usb-046d_HD_Pro_Webcam_C920_AB12CD-video-index0'));
  await symlink('../../video1', join(dev, 'v4l', 'by-id', 'usb-046d_HD_Pro_Webcam_C920_AB12CD-video-index1'));
  const inputs = await enumerateV4l2({ devDir: dev, sysfsDir: sys });
  assert.equal(inputs, [
    {
      id: 'usb-046d_HD_Pro_Webcam_C920_AB12CD-video-index0',
      name: 'HD Pro Webcam C920',
      provider: 'v4l2',
      input: { kind: 'v4l2', device: join(dev, 'v4l', 'by-id', 'usb-046d_HD_Pro_Webcam_C920_AB12CD-video-index0') },
      available: true,
    },
    { id: 'video2', name: 'USB3 Capture', provider: 'v4l2', input: { kind: 'v4l2', device: join(dev, 'video2') }, available: true },
  ]);
});

test('ids are sanitized, numeric order is kept, twins get told apart, missing nodes are unavailable', async () => {
  assert.is(sanitizeId('usb-Acme_Cam_1.0:2 x-video-index0'), 'usb-Acme_Cam_1_0_2_x-video-index0');
  await addDevice(10, 'Twin');
  await addDevice(9, 'Twin');
  await addDevice(3, 'Gone', { node: false });
  await addDevice(4, 'No index file', { index: null });
  await symlink('../../video10', join(dev, 'v4l', 'by-id', 'pci-0000:00:14.0-usb-0:1:1.0-video-index0'));
  const inputs = await enumerateV4l2({ devDir: dev, sysfsDir: sys });
  assert.equal(
    inputs.map((i) => [i.id, i.name, i.available]),
    [
      ['video3', 'Gone', false],
      ['video4', 'No index file', true],
      ['video9', 'Twin (video9)', true],
      ['pci-0000_00_14_0-usb-0_1_1_0-video-index0', 'Twin (pci-0000:00:14.0-usb-0:1:1.0-video-index0)', true],
    ],
  );
  if (process.getuid?.() !== 0) {
    await chmod(join(dev, 'video4'), 0o000);
    const again = await enumerateV4l2({ devDir: dev, sysfsDir: sys });
    assert.is(again.find((i) => i.id === 'video4')?.available, false, 'a node we may not open is unavailable');
  }
});

test('no sysfs directory at all: no devices, no error', async () => {
  assert.equal(await enumerateV4l2({ devDir: join(root, 'nodev'), sysfsDir: join(root, 'nosys') }), []);
});

test('hotplug: watch reports an added and a removed device', async () => {
  await addDevice(0, 'Cam A');
  const provider = createV4l2Provider({ devDir: dev, sysfsDir: sys, pollMs: 50 });
  let changes = 0;
  const stop = provider.watch!(() => changes++);
  await sleep(200);
  assert.is(changes, 0, 'no change, no call');
  await addDevice(1, 'Cam B');
  await waitFor(() => changes === 1, 3000, 'the added device');
  assert.equal(
    (await provider.enumerate()).map((i) => i.name),
    ['Cam A', 'Cam B'],
  );
  await rm(join(sys, 'video0'), { recursive: true });
  await rm(join(dev, 'video0'));
  await waitFor(() => changes === 2, 3000, 'the removed device');
  stop();
  await addDevice(2, 'Cam C');
  await sleep(200);
  assert.is(changes, 2, 'no calls after stop');
});

test('providers from config, in order test, stream, v4l2; duplicate ids keep the first', async () => {
  await addDevice(0, 'Cam');
  const config: Pick<Config, 'live'> = {
    live: {
      test: [...DEFAULT_CONFIG.live.test, { id: 'red', name: 'Red', pattern: 'color=c=red' }],
      streams: [
        { id: 'stage', name: 'Stage Cam', url: 'tcp://127.0.0.1:5000?listen' },
        { id: 'red', name: 'Shadowed', url: 'udp://@:1234' },
      ],
      v4l2: { enabled: true, devDir: dev, sysfsDir: sys },
    },
  };
  const providers = createLiveProviders(config);
  assert.equal(
    providers.map((p) => p.type),
    ['test', 'stream', 'v4l2'],
  );
  const all = await enumerateAll(providers);
  assert.equal(
    all.map((i) => [i.provider, i.id]),
    [
      ['test', 'bars'],
      ['test', 'red'],
      ['stream', 'stage'],
      ['v4l2', 'video0'],
    ],
  );
  assert.equal(all[0]!.input, { kind: 'lavfi', pattern: 'smptehdbars' });
  assert.equal(all[2]!.input, { kind: 'url', url: 'tcp://127.0.0.1:5000?listen' });
  const off = createLiveProviders({ live: { ...config.live, v4l2: { ...config.live.v4l2, enabled: false } } });
  assert.equal(
    off.map((p) => p.type),
    ['test', 'stream'],
  );
  const defaults = await enumerateAll(
    createLiveProviders({ live: { ...DEFAULT_CONFIG.live, v4l2: { enabled: false, devDir: dev, sysfsDir: sys } } }),
  );
  assert.ok(defaults.length > 0 && defaults.every((i) => i.provider === 'test' && i.available), 'defaults have test inputs');
});

test('ffmpeg errors of v4l2 inputs reach the state: missing node, and a node that is not a device', async () => {
  await addDevice(0, 'Not really a camera');
  const client = new IngestClient({ maxWidth: 160, maxHeight: 90, fps: 10, ffmpeg: 'ffmpeg' });
  const seen: Array<{ key: string; state: IngestState; message: string | undefined }> = [];
  client.on('state', (key, state, message) => seen.push({ key, state, message }));
  try {
    await client.open('missing', { kind: 'v4l2', device: join(dev, 'video7') }, { live: true });
    await client.open('fake', { kind: 'v4l2', device: join(dev, 'video0') }, { live: true });
    await waitFor(() => seen.some((e) => e.key === 'missing' && e.state === 'retrying'), 10_000, 'missing → retrying');
    await waitFor(() => seen.some((e) => e.key === 'fake' && e.state === 'retrying'), 10_000, 'fake → retrying');
    const missing = seen.find((e) => e.key === 'missing' && e.state === 'retrying')!;
    assert.match(missing.message ?? '', /video7: No such file or directory/);
    const fake = seen.find((e) => e.key === 'fake' && e.state === 'retrying')!;
    assert.match(fake.message ?? '', /Inappropriate ioctl for device/);
  } finally {
    await client.stop();
  }
});

test.run();
