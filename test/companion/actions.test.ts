// The vjd Companion module's actions, run the way Companion runs them: the built module forked with an IPC channel
// (test/companion/host.ts), each action executed over the host protocol, each group's effect read back over HTTP.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { waitUntil } from '../helpers/server.js';
import { ModuleHost } from './host.js';
import { KEY, startVjd, type Vjd } from './setup.js';

let v: Vjd;
let host: ModuleHost;

test.before(async () => {
  // uvu reports a failed hook without its error: print it.
  try {
    await setup();
  } catch (err) {
    console.error('setup failed:', err);
    throw err;
  }
});

async function setup(): Promise<void> {
  v = await startVjd('vjd-companion-actions-');
  host = await ModuleHost.start({ host: '127.0.0.1', port: v.port, variableGroups: [] }, { apiKey: KEY });
  await host.until(() => host.lastStatus() === 'ok', 60_000, 'status ok');
}
test.after(async () => {
  await host?.stop();
  await v?.cleanup();
});

async function run(actionId: string, options: Record<string, unknown> = {}): Promise<void> {
  const r = await host.action(actionId, options);
  assert.ok(r.success, `${actionId}: ${r.errorMessage}`);
}

test('dropdown choices are read from vjd after connecting', async () => {
  await host.until(
    () => {
      const select = host.definitions.actions?.find((a: any) => a.id === 'source_select');
      return select?.options[0].choices.some((c: any) => c.id === v.clipId) === true;
    },
    30_000,
    'sources in the choices',
  );
  const ids = host.definitions.actions.map((a: any) => a.id);
  for (const id of [
    'source_select',
    'mix_take',
    'mix_tbar',
    'effect_param',
    'layer_solo',
    'scene_recall',
    'transport',
    'tempo',
    'run_action',
    'output_enabled',
  ])
    assert.ok(ids.includes(id), id);
});

test('sources, the mixer and the T-bar', async () => {
  await run('source_select', { source: 'source:plasma', transition: '', durationMs: 0 });
  assert.is((await v.get('/mix')).program.id, 'source:plasma');
  await run('mix_cue', { source: 'source:checkerboard' });
  assert.is((await v.get('/mix')).preview.id, 'source:checkerboard');
  await run('mix_tbar', { value: 0.5 });
  assert.is((await v.get('/mix')).position, 0.5);
  await run('mix_tbar', { value: 1 });
  await waitUntil(async () => (await v.get('/mix')).program.id === 'source:checkerboard', 20_000);
  await run('mix_cue', { source: 'source:plasma' });
  await run('mix_take', { transition: 'fade', durationMs: 200 });
  await waitUntil(async () => (await v.get('/mix')).program.id === 'source:plasma', 20_000);
});

test('effects: add, toggle, enabled, parameters, freeze', async () => {
  await run('effect_add', { type: 'hue_shift', idempotent: true });
  await run('effect_add', { type: 'invert', idempotent: true });
  const chain = async () => (await v.get('/effects')).items;
  assert.equal(
    (await chain()).map((e: any) => e.type),
    ['hue_shift', 'invert'],
  );
  await run('effect_toggle', { effect: 'Invert' });
  assert.is((await chain())[1].enabled, false);
  await run('effect_enabled', { effect: 'Invert', mode: 'on' });
  assert.is((await chain())[1].enabled, true);
  const shift = async () => (await v.get('/effects/1')).inputs.find((i: any) => i.name === 'shift').value;
  await run('effect_param', { effect: 'Hue Shift', input: 'shift', op: 'set', value: 0.5 });
  assert.is(await shift(), 0.5);
  await run('effect_param', { effect: 'Hue Shift', input: 'shift', op: 'add', value: 0.25 });
  assert.is(await shift(), 0.75);
  await run('effect_param', { effect: '1', input: 'shift', op: 'add', value: 1 });
  assert.is(await shift(), 1, 'clamped to the input max');
  await run('freeze', { mode: 'on' });
  assert.is((await v.get('/modulation')).frozen, true);
  await run('freeze', { mode: 'toggle' });
  assert.is((await v.get('/modulation')).frozen, false);
  await run('run_action', { action: 'preset.chunky_pixels' });
  assert.ok((await chain()).some((e: any) => e.presetId === 'chunky_pixels'));
});

test('layers and scenes', async () => {
  await v.post('/layers/add', { source: 'source:noise', opacity: 1 });
  await run('layer_opacity', { layer: 2, value: 0.4 });
  const layer = async (n: number) => (await v.get('/layers')).layers.find((l: any) => l.layer === n);
  assert.is((await layer(2)).opacity, 0.4);
  await run('layer_mute', { layer: 2, mode: 'toggle' });
  assert.is((await layer(2)).mute, true);
  await run('layer_mute', { layer: 2, mode: 'off' });
  assert.is((await layer(2)).mute, false);
  await run('layer_solo', { layer: 2, mode: 'on' });
  assert.is((await layer(2)).solo, true);
  await run('layer_solo', { layer: 2, mode: 'toggle' });
  assert.is((await layer(2)).solo, false);
  await run('layer_select', { layer: 2 });
  assert.is((await v.get('/layers')).selected, 2);
  await run('layer_select', { layer: 1 });
  await run('scene_save', { name: 'Two Layers' });
  assert.ok((await v.get('/scenes')).scenes.some((s: any) => s.id === 'two_layers' || s.name === 'Two Layers'));
  await v.post('/layers/remove', { layer: 2 });
  assert.is((await v.get('/layers')).layers.length, 1);
  const id = (await v.get('/scenes')).scenes.find((s: any) => s.name === 'Two Layers').id;
  await run('scene_recall', { scene: id, transition: 'fade', durationMs: 200 });
  assert.is((await v.get('/layers')).layers.length, 2);
});

test('transport of a clip on program', async () => {
  await v.post('/layers/remove', { layer: 2 });
  // A cold clip can miss vjd's 5 s first-frame deadline on a loaded box: warm it, and retry only that refusal.
  await v.post('/sources/warm', { id: v.clipId });
  for (let i = 0; ; i++) {
    const r = await host.action('file_select', { id: v.clipId });
    if (r.success) break;
    assert.ok(i < 4 && /first frame|ACTIVATION/i.test(String(r.errorMessage)), `file_select: ${r.errorMessage}`);
  }
  await waitUntil(async () => (await v.get('/transport')).program?.state === 'playing', 20_000);
  await run('transport', { op: 'pause' });
  assert.is((await v.get('/transport')).program.state, 'paused');
  await run('transport_seek', { positionS: 4 });
  assert.ok(Math.abs((await v.get('/transport')).program.positionS - 4) < 0.5);
  await run('transport_speed', { speed: 2 });
  assert.is((await v.get('/transport')).program.speed, 2);
  await v.post('/transport/cues', { name: 'drop', positionS: 1 });
  await run('transport_cue', { cue: 'drop' });
  assert.ok(Math.abs((await v.get('/transport')).program.positionS - 1) < 0.5);
  await run('transport', { op: 'play' });
  assert.is((await v.get('/transport')).program.state, 'playing');
});

test('tempo, blackout, dimmer, palettes', async () => {
  await v.post('/tempo/bpm', { bpm: 100 });
  await run('tempo', { op: 'double' });
  assert.is((await v.get('/tempo')).bpm, 200);
  await run('tempo', { op: 'half' });
  assert.is((await v.get('/tempo')).bpm, 100);
  await run('tempo', { op: 'tap' });
  assert.is((await v.get('/tempo')).source, 'tap');
  await run('tempo', { op: 'resync' });
  await run('blackout', { mode: 'on' });
  assert.is((await v.get('/global')).blackout, true);
  await run('blackout', { mode: 'toggle' });
  assert.is((await v.get('/global')).blackout, false);
  await run('dimmer', { value: 0.5 });
  assert.is((await v.get('/global')).dimmer, 0.5);
  const before = (await v.get('/palettes')).currentId;
  await run('palette_next');
  assert.is.not((await v.get('/palettes')).currentId, before);
  await run('palette_select', { palette: before });
  assert.is((await v.get('/palettes')).currentId, before);
});

test('outputs and recordings on and off', async () => {
  await v.post('/outputs/add', { kind: 'record', name: 'archive' });
  await run('output_enabled', { output: 'archive', mode: 'off' });
  const rec = async () => (await v.get('/outputs')).items.find((o: any) => o.name === 'archive');
  assert.is((await rec()).enabled, false);
  await run('output_enabled', { output: 'archive', mode: 'toggle' });
  assert.is((await rec()).enabled, true);
  await run('output_enabled', { output: 'archive', mode: 'off' });
});

test('a refused request is a failed action with vjd’s message, and the module keeps running', async () => {
  const r = await host.action('scene_recall', { scene: 'no-such-scene', transition: '', durationMs: 0 });
  assert.is(r.success, false);
  assert.match(String(r.errorMessage), /scene|not found/i);
  await run('dimmer', { value: 1 });
  assert.is((await v.get('/global')).dimmer, 1);
});

test.run();
