// Config `audio`: the embedded default, and the refusals that keep network-free lavfi text and a usable selection.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/load.js';

let dir = '';
let n = 0;

test.before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vjd-audio-config-'));
});

test.after(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function load(audio: unknown): Promise<{ ok: true; config: any } | { ok: false; message: string }> {
  const file = join(dir, `c${n++}.json`);
  await writeFile(file, JSON.stringify({ audio }));
  try {
    return { ok: true, config: (await loadConfig({ config: file }, {})).config };
  } catch (err) {
    return { ok: false, message: (err as Error).message };
  }
}

const input = (id: string, source = 'sine=frequency=440') => ({ id, name: id, kind: 'test', source });

test('the embedded default is one click input, selected', async () => {
  const r = await load({});
  assert.ok(r.ok);
  if (!r.ok) return;
  assert.equal(
    r.config.audio.inputs.map((i: any) => i.id),
    ['click'],
  );
  assert.is(r.config.audio.input, 'click');
  assert.is(r.config.audio.gain, null);
});

test('inputs of their own without `input` select none', async () => {
  const r = await load({ inputs: [input('tone')] });
  assert.ok(r.ok && r.config.audio.input === null);
});

test('refused: an option as the source, control characters, duplicate ids, an unknown input, a bad gain', async () => {
  const cases: Array<[unknown, string]> = [
    [{ inputs: [input('a', '-i /etc/passwd')] }, 'audio.inputs[0].source'],
    [{ inputs: [input('a', 'sine\nx')] }, 'audio.inputs[0].source'],
    [{ inputs: [input('a'), input('A')] }, 'audio.inputs[1].id'],
    [{ inputs: [input('None')] }, 'audio.inputs[0].id'],
    [{ inputs: [input('a')], input: 'b' }, 'audio.input'],
    [{ gain: 0 }, 'audio.gain'],
    [{ inputs: [{ ...input('a'), kind: 'oss' }] }, 'audio.inputs[0].kind'],
    [{ inputs: [{ ...input('a'), kind: 'alsa' }] }, 'audio.inputs[0].device is required'],
  ];
  for (const [audio, key] of cases) {
    const r = await load(audio);
    assert.not.ok(r.ok, `accepted ${JSON.stringify(audio)}`);
    if (!r.ok) assert.ok(r.message.includes(key), `${JSON.stringify(audio)}: ${r.message}`);
  }
});

test.run();
