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

test('the embedded default is a click input, selected, and the program input', async () => {
  const r = await load({});
  assert.ok(r.ok);
  if (!r.ok) return;
  assert.equal(
    r.config.audio.inputs.map((i: any) => i.id),
    ['click', 'program'],
  );
  assert.is(r.config.audio.inputs[1].kind, 'program');
  assert.is(r.config.audio.input, 'click');
  assert.is(r.config.audio.gain, null);
  assert.is(r.config.audio.offsetMs, 0);
  assert.is(r.config.audio.beatsPerBar, 4);
  assert.equal(r.config.audio.tempoRange, { min: 75, max: 150 });
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
    [{ inputs: [{ id: 'a', name: 'a', kind: 'pulse', device: '-f lavfi' }] }, 'audio.inputs[0].device'],
    [{ inputs: [{ id: 'a', name: 'a', kind: 'stream', url: 'udp://x', device: 'hw:0' }] }, 'audio.inputs[0].device is not taken'],
    [{ inputs: [{ id: 'a', name: 'a', kind: 'alsa', device: 'hw:0', url: 'udp://x' }] }, 'audio.inputs[0].url is not taken'],
    [{ offsetMs: 600 }, 'audio.offsetMs'],
    [{ beatsPerBar: 0 }, 'audio.beatsPerBar'],
    [{ tempoRange: { min: 140, max: 120 } }, 'audio.tempoRange'],
    [{ tempoRange: { min: 120, max: 125 } }, 'audio.tempoRange'],
    [{ inputs: [{ id: 'a', name: 'a', kind: 'stream', url: '-i /etc/passwd' }] }, 'audio.inputs[0].url'],
    [{ inputs: [{ id: 'a', name: 'a', kind: 'stream', url: 'udp://x\n' }] }, 'audio.inputs[0].url'],
    [{ inputs: [{ id: 'a', name: 'a', kind: 'stream' }] }, 'audio.inputs[0].url'],
    [{ inputs: [{ id: 'a', name: 'a', kind: 'program', url: 'udp://x' }] }, 'audio.inputs[0].url'],
    [{ inputs: [{ ...input('a'), url: 'udp://x' }] }, 'audio.inputs[0].url'],
  ];
  for (const [audio, key] of cases) {
    const r = await load(audio);
    assert.not.ok(r.ok, `accepted ${JSON.stringify(audio)}`);
    if (!r.ok) assert.ok(r.message.includes(key), `${JSON.stringify(audio)}: ${r.message}`);
  }
});

test('stream, program, alsa and pulse inputs load', async () => {
  const r = await load({
    inputs: [
      { id: 'cam', name: 'Cam audio', kind: 'stream', url: 'udp://127.0.0.1:5000' },
      { id: 'prog', name: 'Program', kind: 'program' },
      { id: 'card', name: 'USB card', kind: 'alsa', device: 'plughw:CARD=USB,DEV=0' },
      { id: 'mic', name: 'Mic', kind: 'pulse', device: 'alsa_input.usb-mic.analog-stereo' },
    ],
    devices: { alsa: false, pulse: false },
    input: 'prog',
  });
  assert.ok(r.ok, r.ok ? '' : r.message);
});

test.run();
