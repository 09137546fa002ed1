// The `outputs` config key: errors name the key like every other config error; URL rules are the routes' rules.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../src/config/load.js';

let root = '';
let n = 0;
test.before(async () => {
  root = await mkdtemp(join(tmpdir(), 'vjd-outcfg-'));
});
test.after(async () => {
  await rm(root, { recursive: true, force: true });
});

async function load(outputs: unknown) {
  const file = join(root, `c${n++}.json`);
  await writeFile(file, JSON.stringify({ outputs }));
  return loadConfig({ config: file }, {}, { resolveHost: false });
}

async function error(outputs: unknown): Promise<ConfigError> {
  try {
    await load(outputs);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

test('valid outputs load with their fields', async () => {
  const loaded = await load([
    { id: 'lan', kind: 'stream', enabled: true, url: 'srt://10.0.0.2:9000?mode=caller', bitrateKbps: 3000 },
    { id: 'rec', name: 'Archive', kind: 'record', enabled: false, fps: 25 },
  ]);
  assert.is(loaded.config.outputs.length, 2);
  assert.is(loaded.config.outputs[0]!.url, 'srt://10.0.0.2:9000?mode=caller');
  assert.is(loaded.config.outputs[1]!.fps, 25);
});

test('unknown keys, bad values, refused URLs and duplicate ids are named', async () => {
  let e = await error([{ id: 'a', kind: 'stream', enabled: true, url: 'udp://h:1', bitrate: 5 }]);
  assert.is(e.key, 'outputs[0].bitrate');
  e = await error([{ id: 'a', kind: 'ndi', enabled: true }]);
  assert.is(e.key, 'outputs[0].kind');
  e = await error([{ id: 'a', kind: 'stream', enabled: true, url: 'file:///etc/passwd' }]);
  assert.is(e.key, 'outputs[0].url');
  assert.match(e.message, /scheme "file:" is not allowed/);
  e = await error([{ id: 'a', kind: 'stream', enabled: true }]);
  assert.is(e.key, 'outputs[0].url');
  e = await error([{ id: 'a', kind: 'record', enabled: true, width: 8 }]);
  assert.is(e.key, 'outputs[0].width');
  e = await error([
    { id: 'a', kind: 'record', enabled: true },
    { id: 'A', kind: 'record', enabled: true },
  ]);
  assert.is(e.key, 'outputs[1].id');
  e = await error([{ id: 'a', kind: 'record' }]);
  assert.is(e.key, 'outputs[0].enabled');
});

test.run();
