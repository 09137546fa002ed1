// Config rules of the display and v4l2 kinds and of the recordings folder: bad values named by key, the
// recordings folder relative to dataDir or absolute.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../src/config/load.js';

let root = '';
let n = 0;
test.before(async () => {
  root = await mkdtemp(join(tmpdir(), 'vjd-kindcfg-'));
});
test.after(async () => {
  await rm(root, { recursive: true, force: true });
});

async function load(content: Record<string, unknown>) {
  const file = join(root, `c${n++}.json`);
  await writeFile(file, JSON.stringify(content));
  return loadConfig({ config: file }, {}, { resolveHost: false });
}

async function error(content: Record<string, unknown>): Promise<ConfigError> {
  try {
    await load(content);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

test('display and v4l2 outputs load with their fields', async () => {
  const { config } = await load({
    outputs: [
      { id: 'proj', kind: 'display', enabled: true },
      { id: 'side', kind: 'display', enabled: false, display: ':1.1', x: 1920, y: 0, width: 1280, height: 720, fps: 60 },
      { id: 'cam', kind: 'v4l2', enabled: true, device: '/dev/video10', width: 1280, height: 720 },
    ],
  });
  assert.is(config.outputs[1]!.display, ':1.1');
  assert.is(config.outputs[1]!.x, 1920);
  assert.is(config.outputs[2]!.device, '/dev/video10');
});

test('bad display and device values are named', async () => {
  const cases: Array<[Record<string, unknown>, string, RegExp]> = [
    [{ kind: 'display', display: 'projector:0' }, 'display', /local X display/],
    [{ kind: 'display', display: '0' }, 'display', /local X display/],
    [{ kind: 'display', display: ':0; rm -rf /' }, 'display', /X display/],
    [{ kind: 'display', x: -1 }, 'x', /integer from 0/],
    [{ kind: 'display', y: 40000 }, 'y', /integer from 0/],
    [{ kind: 'display', url: 'udp://h:1' }, 'url', /not used by a display output/],
    [{ kind: 'display', device: '/dev/video1' }, 'device', /not used by a display output/],
    [{ kind: 'display', bitrateKbps: 4000 }, 'bitrateKbps', /not used by a display output/],
    [{ kind: 'v4l2' }, 'device', /required/],
    [{ kind: 'v4l2', device: '/dev/sda' }, 'device', /\/dev\/video<N>/],
    [{ kind: 'v4l2', device: '/dev/video10/../sda' }, 'device', /\/dev\/video<N>/],
    [{ kind: 'v4l2', device: 'video10' }, 'device', /\/dev\/video<N>/],
    [{ kind: 'v4l2', device: '/dev/video10', display: ':0' }, 'display', /not used by a v4l2 output/],
    [{ kind: 'stream', url: 'udp://h:1', device: '/dev/video10' }, 'device', /not used by a stream output/],
  ];
  for (const [fields, key, message] of cases) {
    const e = await error({ outputs: [{ id: 'o', enabled: true, ...fields }] });
    assert.is(e.key, `outputs[0].${key}`, JSON.stringify(fields));
    assert.match(e.message, message, JSON.stringify(fields));
  }
});

test('recordings.dir: default under dataDir, relative to dataDir, absolute, bad values named', async () => {
  const dataDir = join(root, 'data');
  let loaded = await load({ dataDir });
  assert.is(loaded.paths.recordingsDir, join(dataDir, 'recordings'));
  loaded = await load({ dataDir, recordings: { dir: 'clips/show' } });
  assert.is(loaded.paths.recordingsDir, join(dataDir, 'clips', 'show'));
  loaded = await load({ dataDir, recordings: { dir: '/srv/vjd-rec' } });
  assert.is(loaded.paths.recordingsDir, '/srv/vjd-rec');
  let e = await error({ recordings: { dir: '' } });
  assert.is(e.key, 'recordings.dir');
  e = await error({ recordings: { dir: 5 } });
  assert.is(e.key, 'recordings.dir');
  e = await error({ recordings: { folder: 'x' } });
  assert.is(e.key, 'recordings.folder');
});

test.run();
