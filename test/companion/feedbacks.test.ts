// The vjd Companion module's feedbacks and variables, driven through the host protocol (host.ts): changes made over
// HTTP by another client reach the module's feedback values and variables over the events socket, and the beat
// flash runs from the module's own clock. Images, the subscription and connection errors: images.test.ts.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
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
  v = await startVjd('vjd-companion-feedbacks-');
  await v.post('/sources/select', { id: 'source:plasma' });
  await v.post('/effects/add', { type: 'invert' });
  await v.post('/scenes/save', { name: 'Chorus' });
  const all = ['tempo', 'mix', 'scene', 'transport', 'layers', 'status', 'recording'];
  host = await ModuleHost.start({ host: '127.0.0.1', port: v.port, variableGroups: all }, { apiKey: KEY });
  await host.until(() => host.lastStatus() === 'ok', 60_000, 'status ok');
}
test.after(async () => {
  await host?.stop();
  await v?.cleanup();
});

const fb = (id: string) => host.feedbacks.get(id)?.value;

test('feedbacks follow changes made over HTTP by another client', async () => {
  await host.setFeedbacks({
    prog: { feedbackId: 'on_program', options: { source: 'source:checkerboard' } },
    prev: { feedbackId: 'on_preview', options: { source: 'source:noise' } },
    black: { feedbackId: 'blackout' },
    fx: { feedbackId: 'effect_enabled', options: { effect: 'Invert' } },
    mute: { feedbackId: 'layer_muted', options: { layer: 1 } },
    solo: { feedbackId: 'layer_soloed', options: { layer: 1 } },
    scene: { feedbackId: 'scene_active', options: { scene: 'chorus' } },
  });
  await host.until(
    () => fb('prog') === false && fb('black') === false && fb('fx') === true && fb('scene') === true,
    30_000,
    'initial values',
  );
  await v.post('/sources/select', { id: 'source:checkerboard' });
  await host.until(() => fb('prog') === true && fb('scene') === false, 30_000, 'on program, scene left');
  await v.post('/mix/cue', { id: 'source:noise' });
  await host.until(() => fb('prev') === true, 30_000, 'on preview');
  await v.post('/global/blackout', { enabled: true });
  await host.until(() => fb('black') === true, 30_000, 'blackout on');
  await v.post('/global/blackout', { enabled: false });
  await host.until(() => fb('black') === false, 30_000, 'blackout off');
  await v.post('/effects/toggle', { name: 'invert' });
  await host.until(() => fb('fx') === false, 30_000, 'effect disabled');
  await v.post('/layers/mute', { layer: 1, enabled: true });
  await v.post('/layers/solo', { layer: 1, enabled: true });
  await host.until(() => fb('mute') === true && fb('solo') === true, 30_000, 'muted and soloed');
  await v.post('/layers/mute', { layer: 1, enabled: false });
  await v.post('/layers/solo', { layer: 1, enabled: false });
  await v.post('/effects/toggle', { name: 'invert' });
  await v.post('/scenes/recall', { id: 'chorus' });
  await host.until(() => fb('scene') === true && host.variables.get('scene') === 'Chorus', 30_000, 'scene active again');
  await host.setFeedbacks({ prog: null, prev: null, black: null, fx: null, mute: null, solo: null, scene: null });
});

test('variables: names, tempo, layers, fps, clip times, recording time', async () => {
  await v.post('/sources/select', { id: 'source:plasma' });
  await host.until(() => host.variables.get('program') === 'Plasma', 30_000, 'program name');
  await v.post('/tempo/bpm', { bpm: 137 });
  await host.until(() => host.variables.get('bpm') === 137, 30_000, 'bpm');
  const beats = new Set<unknown>();
  await host.until(
    () => {
      beats.add(host.variables.get('beat_count'));
      return beats.size >= 3;
    },
    30_000,
    'beats counting',
  );
  await v.post('/layers/opacity', { layer: 1, value: 0.7 });
  await host.until(() => host.variables.get('layer_1_opacity') === 0.7, 30_000, 'opacity');
  await v.post('/layers/opacity', { layer: 1, value: 1 });
  await host.until(() => typeof host.variables.get('fps') === 'number', 30_000, 'fps');
  await v.select(v.clipId);
  await host.until(
    () => typeof host.variables.get('clip_remaining_s') === 'number' && /^\d\d:\d\d$/.test(String(host.variables.get('clip_remaining'))),
    30_000,
    'clip times',
  );
  await host.setFeedbacks({ end: { feedbackId: 'clip_near_end', options: { seconds: 2 } } });
  // The 6 s clip loops: its last 2 s come round within a few seconds, and leave again.
  await host.until(() => fb('end') === true, 30_000, 'near the end');
  await host.until(() => fb('end') === false, 30_000, 'looped past the end');
  await host.setFeedbacks({ end: null, rec: { feedbackId: 'recording', options: { output: '' } } });
  await v.post('/outputs/add', { kind: 'record', name: 'archive' });
  await host.until(() => fb('rec') === true && host.variables.get('recording') === true, 30_000, 'recording');
  await host.until(() => Number(host.variables.get('recording_time_s')) >= 1, 30_000, 'recording time ticks');
  assert.match(String(host.variables.get('recording_time')), /^\d\d:\d\d$/);
  await v.post('/outputs/enabled', { name: 'archive', enabled: false });
  await host.until(() => fb('rec') === false, 30_000, 'recording stopped');
  await host.setFeedbacks({ rec: null });
});

test('beat flash is timed locally from the tempo line', async () => {
  await v.post('/tempo/bpm', { bpm: 120 });
  await host.setFeedbacks({ flash: { feedbackId: 'beat_flash', options: { unit: 'beat', fraction: 0.5 } } });
  // Both states show within a few beats: the module redraws at each edge from its own timer.
  await host.until(() => fb('flash') === true, 30_000, 'flash on');
  await host.until(() => fb('flash') === false, 30_000, 'flash off');
  await host.until(() => fb('flash') === true, 30_000, 'flash on again');
  await host.setFeedbacks({ flash: null });
});

test.run();
