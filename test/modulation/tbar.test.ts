// A T-bar modulator over real HTTP and real GL: gray on program, red cued on preview, the mixer's transition a fade
// chosen in config (so the plain select ran no take and the renderer was never told the transition). An LFO on the
// T-bar blends toward red and back over its cycle, and GET /mix shows the modulator and a live position. After a
// restart (a new renderer, the modulator restored), cueing moves it again.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { req, sampleOutput, sleep, startServer, tempDir, waitUntil, type TestServer } from '../helpers/server.js';

let s: TestServer;
let dataDir = '';
let config: Record<string, unknown> = {};
const api = (p: string): string => `${s.base}/api/v1${p}`;

async function ok(p: string, body: unknown): Promise<any> {
  const r = await req('POST', api(p), { body, timeoutMs: 20000 });
  assert.is(r.status, 200, `${p}: ${r.text}`);
  return r.json();
}

const SOLID = (name: string, rgb: number[]) => JSON.stringify({ name, source: 'solid_color', inputs: { color: [...rgb, 1] } });

/** Red of the output's centre, sampled through more than a cycle of the LFO the tests set. */
async function reds(): Promise<{ lo: number; hi: number; all: string }> {
  const out: number[] = [];
  const end = Date.now() + 3000;
  while (Date.now() < end) {
    out.push((await sampleOutput(s.base))[0]![0]!);
    await sleep(100);
  }
  return { lo: Math.min(...out), hi: Math.max(...out), all: out.join(' ') };
}

test.before(async () => {
  dataDir = await tempDir();
  const presets = join(dataDir, 'presets');
  await mkdir(presets, { recursive: true });
  await writeFile(join(presets, 'gray.json'), SOLID('Gray', [0.5, 0.5, 0.5]));
  await writeFile(join(presets, 'red.json'), SOLID('Red', [1, 0, 0]));
  config = {
    presets: { dirs: [presets] },
    mix: { transition: 'fade', durationMs: 0 },
    live: { test: [], streams: [], v4l2: { enabled: false } },
  };
  s = await startServer({ dataDir, config });
  await ok('/sources/select', { id: 'preset:gray' });
  await ok('/mix/cue', { id: 'preset:red' });
  const mix = (await req('GET', api('/mix'))).json();
  assert.is(mix.transition.type, 'fade');
  assert.is(mix.inTransition, false);
});

test.after(async () => {
  await s?.cleanup();
});

test('an LFO on the T-bar blends the output toward the preview and back', async () => {
  await waitUntil(async () => (await sampleOutput(s.base))[0]![0]! < 150, 10000).catch(() =>
    assert.unreachable('the output shows the gray program before the modulator'),
  );
  const r = await ok('/mix/modulate', { modulator: { kind: 'lfo', shape: 'sine', rate: 0.5, amount: 0.5 } });
  assert.is(r.input, 'tbar');
  assert.is(r.modulator.amount, 0.5);
  const r1 = await reds();
  assert.ok(r1.lo < 150, `the program shows at the low end: ${r1.all}`);
  assert.ok(r1.hi > 170, `the blend reaches toward red: ${r1.all}`);
  const mix = (await req('GET', api('/mix'))).json();
  assert.is(mix.modulator.kind, 'lfo');
  assert.type(mix.live, 'number');
  assert.ok(mix.live >= 0 && mix.live <= 1, `live ${mix.live}`);
  assert.is(mix.position, 0, 'the held position stays');
});

test('after a restart the saved modulator moves the T-bar again once a source is cued', async () => {
  await s.stop();
  s = await startServer({ dataDir, config });
  const mix = (await req('GET', api('/mix'))).json();
  assert.is(mix.modulator?.kind, 'lfo', 'the modulator was restored');
  await ok('/mix/cue', { id: 'preset:red' });
  const r = await reds();
  assert.ok(r.lo < 150, `the program shows at the low end: ${r.all}`);
  assert.ok(r.hi > 170, `the blend reaches toward red: ${r.all}`);
});

test.run();
