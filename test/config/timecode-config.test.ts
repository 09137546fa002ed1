// Config `timecode`: the embedded default reads nothing; each setup that could never read timecode is refused at
// load with the key and the file named.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../src/config/config-error.js';
import { loadConfig } from '../../src/config/load.js';

let dir = '';
let n = 0;

test.before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vjd-timecode-config-'));
});

test.after(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function load(body: unknown): Promise<{ config?: any; key?: string; file?: string | null; message?: string }> {
  const file = join(dir, `c${n++}.json`);
  await writeFile(file, JSON.stringify(body));
  try {
    return { config: (await loadConfig({ config: file }, {})).config };
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    return { key: err.key, file: err.file, message: err.message };
  }
}

test('the default reads no timecode; a full setup merges over it', async () => {
  assert.equal((await load({})).config.timecode, {
    source: 'none',
    fps: null,
    offset: '00:00:00:00',
    freewheelMs: 500,
    lossAction: 'hold',
    ltc: null,
    mtc: { port: null },
  });
  const r = await load({
    audio: { inputs: [{ id: 'deck', name: 'Deck', kind: 'stream', url: '/srv/ltc.wav' }] },
    timecode: { source: 'ltc', fps: 29.97, offset: '-00:00:10:00', ltc: { input: 'deck' } },
  });
  assert.equal(r.config.timecode.ltc, { input: 'deck', channel: 1 });
  assert.is(r.config.timecode.fps, 29.97);
});

test('setups that could never read timecode are refused, naming the key and the file', async () => {
  const cases: Array<[unknown, string, RegExp]> = [
    [{ timecode: { source: 'ltc' } }, 'timecode.ltc', /needs timecode.ltc/],
    [{ timecode: { source: 'ltc', ltc: { input: 'nope' } } }, 'timecode.ltc.input', /not one of audio.inputs/],
    [{ timecode: { source: 'ltc', ltc: { input: 'program' } } }, 'timecode.ltc.input', /program's audio/],
    [{ dmx: { protocol: 'sacn' }, timecode: { source: 'artnet' } }, 'timecode.source', /dmx.protocol/],
    [{ timecode: { source: 'mtc' } }, 'timecode.source', /midi.enabled/],
    [{ timecode: { offset: '25:00:00:00' } }, 'timecode.offset', /time of day/],
    [{ timecode: { fps: 50 } }, 'timecode.fps', /24, 25, 29.97 or 30/],
    [{ timecode: { source: 'ltc', ltc: { input: 'click', channel: 9 } } }, 'timecode.ltc.channel', /1 to 8/],
  ];
  for (const [body, key, words] of cases) {
    const r = await load(body);
    assert.is(r.key, key, JSON.stringify(body));
    assert.match(r.message ?? '', words);
    assert.ok(r.file?.endsWith('.json'), 'the file is named');
  }
});

test.run();
