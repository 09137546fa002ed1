// Capture devices over real HTTP: ALSA cards appearing and disappearing in an ALSA procfs layout (hot-plug listing,
// pinned devices, /capabilities, a saved selection waiting for its card), real PulseAudio capture from a null sink's
// monitor on a private server (unplugged: levels 0 and retried; plugged back: heard again), real ALSA capture where
// the box has sound hardware, and device names that could reach ffmpeg as options refused at start.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { runCli, startServer, req, tempDir, waitUntil, type TestServer } from '../helpers/server.js';
import { pulseMissing, startPulse, type PulseServer } from './pulse-server.js';

const hasSnd = await stat('/dev/snd').then(
  () => true,
  () => false,
);
const pulseWhy = await pulseMissing();
const pulse: PulseServer | null = pulseWhy ? null : await startPulse('vjdsink');
const asound = await tempDir('vjd-asound-');
const dataDir = await tempDir();

const CARDS = [
  ' 0 [USBMic         ]: USB-Audio - USB Microphone',
  '                      Generic USB Microphone at usb-0000:00:14.0-1, full speed',
  ' 1 [Cam            ]: USB-Audio - HD Webcam',
  '                      HD Webcam at usb-0000:00:14.0-2, high speed',
  ' 2 [HDMI           ]: HDA-Intel - HDA HDMI',
  ' 3 [-bad           ]: Evil - -i /etc/passwd',
  '',
].join('\n');
const PCMS = [
  '00-00: USB Audio : USB Audio : capture 1',
  '01-00: USB Audio : USB Audio : capture 1',
  '02-03: HDMI 0 : HDMI 0 : playback 1',
  '03-00: Evil : Evil : capture 1',
  '',
].join('\n');

async function plug(on: boolean): Promise<void> {
  await writeFile(join(asound, 'cards'), on ? CARDS : '--- no soundcards ---\n');
  await writeFile(join(asound, 'pcm'), on ? PCMS : '');
}

const config = {
  audio: {
    inputs: [
      { id: 'low', name: 'Tone 80 Hz', kind: 'test', source: 'sine=frequency=80:sample_rate=48000' },
      { id: 'usbmic', name: 'USB mic', kind: 'alsa', device: 'plughw:CARD=USBMic,DEV=0' },
      { id: 'other', name: 'Other monitor', kind: 'pulse', device: 'vjdother.monitor' },
    ],
    input: null,
    devices: { asoundDir: asound },
  },
};

let s: TestServer;
const api = (p: string): string => `${s.base}/api/v1${p}`;
const get = (p: string) => req('GET', api(p));
const post = (p: string, body: unknown) => req('POST', api(p), { body });
const audio = async (): Promise<any> => (await get('/audio')).json();
const input = async (id: string): Promise<any> => (await audio()).inputs.find((i: any) => i.id === id);
const kinds = async (): Promise<string[]> => (await get('/capabilities')).json().audio.kinds;
const levels = async (): Promise<Record<string, number>> => (await get('/audio/levels')).json();

async function until(what: string, ok: () => Promise<boolean>): Promise<void> {
  try {
    await waitUntil(ok, 30_000, 100);
  } catch {
    assert.unreachable(`${what} never happened; GET /audio: ${JSON.stringify(await audio())}`);
  }
}

const start = (): Promise<TestServer> => startServer({ config, dataDir, env: pulse?.env ?? {} });

test.before(async () => {
  await plug(false);
  s = await start();
});

test.after(async () => {
  await s?.cleanup();
  await pulse?.stop();
  await rm(asound, { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
});

test('ALSA capture devices are listed only while their card is there; a pinned one says whether it is', async () => {
  const a = await audio();
  assert.ok(!a.inputs.some((i: any) => i.kind === 'alsa' && i.id !== 'usbmic'), JSON.stringify(a.inputs));
  assert.equal(await input('usbmic'), {
    id: 'usbmic',
    name: 'USB mic',
    kind: 'alsa',
    device: 'plughw:CARD=USBMic,DEV=0',
    available: false,
  });
  if (!hasSnd) assert.not.ok((await kinds()).includes('alsa'));

  await plug(true);
  await until('the webcam listed', async () => (await input('alsa-Cam-0')) !== undefined);
  assert.equal(await input('alsa-Cam-0'), {
    id: 'alsa-Cam-0',
    name: 'HD Webcam: USB Audio',
    kind: 'alsa',
    device: 'plughw:CARD=Cam,DEV=0',
    available: true,
  });
  const ids = (await audio()).inputs.map((i: any) => i.id);
  // The pinned card is listed once (as configured), a playback-only PCM and a card with a bad id not at all.
  assert.equal(ids, ['low', 'usbmic', 'other', 'alsa-Cam-0', ...ids.filter((id: string) => id.startsWith('pulse-'))]);
  assert.is((await input('usbmic')).available, true);
  assert.ok((await kinds()).includes('alsa'));

  // Selectable by name like any input; this box has no sound hardware behind it, so it is retried and reads 0.
  const r = await post('/audio/select', { name: 'hd webcam: usb audio' });
  assert.is(r.status, 200, r.text);
  assert.is(r.json().current, 'alsa-Cam-0');
  if (!hasSnd) {
    await until('the webcam retrying', async () => (await audio()).state === 'retrying');
    assert.is((await levels()).level, 0);
  }

  await plug(false);
  await until('the webcam gone', async () => (await input('alsa-Cam-0')) === undefined);
  assert.is((await input('usbmic')).available, false);
  if (!hasSnd) assert.not.ok((await kinds()).includes('alsa'));
  // The selection stays (retried until the card is back), but an absent device cannot be picked anew.
  assert.is((await audio()).current, 'alsa-Cam-0');
  const gone = await post('/audio/select', { id: 'alsa-Cam-0' });
  assert.is(gone.status, 404, gone.text);
  assert.is(gone.json().code, 'ITEM_NOT_FOUND');
});

test('a saved device selection whose card is missing at start opens when the card appears', async () => {
  await s.stop();
  s = await start();
  const a = await audio();
  assert.is(a.current, null);
  assert.is(a.state, 'stopped');
  await plug(true);
  await until('the saved webcam opened', async () => (await audio()).current === 'alsa-Cam-0');
  assert.is((await post('/audio/select', { id: 'none' })).status, 200);
  await plug(false);
});

(hasSnd ? test : test.skip)('ALSA capture from this box sound hardware delivers samples', async () => {
  // Runs only where /dev/snd exists; the procfs listing of the real cards is read instead of the test layout.
  const real = await startServer({ config: { audio: { inputs: [], input: null } } });
  try {
    const all = (await req('GET', `${real.base}/api/v1/audio`)).json().inputs.filter((i: any) => i.kind === 'alsa');
    assert.ok(all.length > 0, 'no ALSA capture device listed although /dev/snd exists');
    await req('POST', `${real.base}/api/v1/audio/select`, { body: { id: all[0].id } });
    await waitUntil(async () => (await req('GET', `${real.base}/api/v1/audio/levels`)).json().hops > 100, 30_000);
  } finally {
    await real.cleanup();
  }
});
if (!hasSnd) console.log('not run: ALSA capture from sound hardware (this machine has no /dev/snd)');

(pulse ? test : test.skip)(
  'PulseAudio: a tone in a sink is heard from its monitor; unplugged it reads 0, plugged back it is heard again',
  async () => {
    const p = pulse!;
    const id = 'pulse-vjdsink_monitor';
    await until('the monitor listed', async () => (await input(id)) !== undefined);
    assert.equal(await input(id), { id, name: 'Monitor of Null Output', kind: 'pulse', device: 'vjdsink.monitor', available: true });
    assert.ok((await kinds()).includes('pulse'));
    assert.is((await input('other')).available, false);

    let tone: ChildProcess = p.tone('vjdsink', 80);
    try {
      assert.is((await post('/audio/select', { id })).status, 200);
      await until('bass heard', async () => {
        const l = await levels();
        return l.bass! > 0.5 && l.high! < 0.2;
      });
      assert.is((await audio()).state, 'running');

      const modules = await p.pactl('list', 'short', 'modules');
      const line = modules.split('\n').find((l) => l.includes('module-null-sink') && l.includes('sink_name=vjdsink'));
      assert.ok(line, modules);
      await p.pactl('unload-module', line!.split('\t')[0]!);
      await until('the monitor unlisted', async () => (await input(id)) === undefined);
      await until('silence while unplugged', async () => (await levels()).level === 0 && (await audio()).state !== 'running');
      assert.is((await audio()).current, id);

      await p.pactl('load-module', 'module-null-sink', 'sink_name=vjdsink');
      tone.kill('SIGKILL');
      tone = p.tone('vjdsink', 80);
      await until('the monitor listed again', async () => (await input(id)) !== undefined);
      await until('bass heard again', async () => (await levels()).bass! > 0.5 && (await audio()).state === 'running');

      // A pinned source becomes available when its sink appears.
      await p.pactl('load-module', 'module-null-sink', 'sink_name=vjdother');
      await until('the pinned monitor available', async () => (await input('other')).available === true);
    } finally {
      tone.kill('SIGKILL');
    }
  },
);
if (!pulse) console.log(`not run: PulseAudio capture (${pulseWhy})`);

test('a device name that ffmpeg would take as an option, or a field of another kind, stops the start (exit 2)', async () => {
  const dir = await tempDir();
  try {
    const cases: Array<[unknown, RegExp]> = [
      [{ id: 'm', name: 'Mic', kind: 'alsa', device: '-i' }, /audio\.inputs\[0\]\.device/],
      [{ id: 'm', name: 'Mic', kind: 'pulse', device: 'mic;rm -rf' }, /audio\.inputs\[0\]\.device/],
      [{ id: 'm', name: 'Mic', kind: 'pulse' }, /audio\.inputs\[0\]\.device is required/],
      [{ id: 'm', name: 'Mic', kind: 'test', source: 'sine', device: 'hw:0' }, /audio\.inputs\[0\]\.device is not taken/],
    ];
    await mkdir(join(dir, 'd'), { recursive: true });
    for (const [bad, message] of cases) {
      const file = join(dir, 'config.json');
      await writeFile(file, JSON.stringify({ audio: { inputs: [bad], input: null } }));
      const r = await runCli(['serve', '--config', file, '--data-dir', join(dir, 'd')]);
      assert.is(r.code, 2, `${JSON.stringify(bad)}: ${r.stdout}${r.stderr}`);
      assert.match(`${r.stdout}${r.stderr}`, message);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test.run();
