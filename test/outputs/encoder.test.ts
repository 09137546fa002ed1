// The `encoder` of stream and record outputs: `auto` falls back to libx264 where no hardware encoder runs (and the
// file it writes is H.264), a value outside the list is refused by name, a hardware encoder ffmpeg lists but this box
// cannot run is a `failed` output saying why, and the probe's order and once-only trials with a fake ffmpeg.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../src/config/load.js';
import { EncoderProbe, reasonOf } from '../../src/outputs/encoder-probe.js';
import { HW_ENCODERS, listedEncoders, trialArgs, type HwEncoder } from '../../src/shared/output-kinds/encoders.js';
import { encodeKey, encoderArgs } from '../../workers/output/shared-args.js';
import { startServer, req, waitUntil, type TestServer } from '../helpers/server.js';
import { run } from './media.js';

let server: TestServer;
const api = (p: string): string => `${server.base}/api/v1${p}`;
const post = (p: string, body: unknown) => req('POST', api(p), { body });
const output = async (id: string) =>
  ((await req('GET', api('/outputs'))).json().items as Array<Record<string, any>>).find((o) => o.id === id)!;
/** What this ffmpeg lists, and which of those encode a trial frame here (the server's own probe must agree). */
let listed = new Set<string>();
const working: HwEncoder[] = [];

test.before(async () => {
  listed = listedEncoders((await run('ffmpeg', ['-hide_banner', '-encoders'])).stdout);
  for (const enc of HW_ENCODERS) if (listed.has(enc) && (await run('ffmpeg', trialArgs(enc))).code === 0) working.push(enc);
  server = await startServer({
    config: {
      live: { test: [{ id: 'red', name: 'Red', pattern: 'color=c=red:size=320x180:rate=30' }], streams: [], v4l2: { enabled: false } },
      outputs: [{ id: 'rec', kind: 'record', enabled: true, width: 160, height: 90, fps: 10, encoder: 'auto' }],
    },
  });
});

test.after(async () => {
  await server?.cleanup();
});

test('encoder "auto" without working hardware records with libx264 and says so; the file is H.264', async () => {
  await waitUntil(async () => (await output('rec')).framesSent >= 20, 30000);
  const o = await output('rec');
  assert.is(o.encoder, 'auto');
  const status = (await req('GET', api('/status'))).json().outputs;
  if (working.length > 0) {
    console.log(`not run: the fallback to libx264 (${working[0]} works on this box)`);
    assert.is(o.encoderInUse, working[0]);
    assert.is(status.autoEncoder, working[0]);
  } else {
    assert.is(o.encoderInUse, 'libx264');
    assert.is(status.autoEncoder, 'libx264');
  }
  assert.is((await post('/outputs/enabled', { id: 'rec', enabled: false })).status, 200);
  await waitUntil(async () => (await output('rec')).state === 'stopped', 10000);
  const file = join(server.dataDir, 'recordings', (await output('rec')).target);
  const p = await run('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=codec_name', '-of', 'csv=p=0', file]);
  assert.is(p.stdout.trim(), 'h264', p.stderr);
});

test('an encoder outside the list is refused with 400 naming encoder, over the API and in the config file', async () => {
  const r = await post('/outputs/add', { kind: 'record', encoder: 'bogus' });
  assert.is(r.status, 400, r.text);
  assert.is(r.json().code, 'INVALID_REQUEST');
  assert.match(r.json().message, /encoder/);
  const dir = await mkdtemp(join(tmpdir(), 'vjd-enc-'));
  try {
    const file = join(dir, 'c.json');
    await writeFile(file, JSON.stringify({ outputs: [{ id: 's', kind: 'record', enabled: false, encoder: 'h265_magic' }] }));
    const err = await loadConfig({ config: file }, {}, { resolveHost: false }).then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(err instanceof ConfigError, String(err));
    assert.is(err.key, 'outputs[0].encoder');
    assert.match(err.message, file);
    assert.match(err.message, /"auto"/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a hardware encoder this box cannot run: a failed output with the reason (400 when ffmpeg lacks it)', async () => {
  const enc = HW_ENCODERS.find((e) => !working.includes(e));
  if (!enc) return console.log('not run: a hardware encoder that fails here (every one works on this box)');
  const r = await post('/outputs/add', { kind: 'record', encoder: enc, width: 160, height: 90, fps: 10 });
  if (!listed.has(enc)) {
    assert.is(r.status, 400, r.text);
    assert.match(r.json().message, new RegExp(`encoder ${enc} is not in this ffmpeg build`));
    return;
  }
  assert.is(r.status, 200, r.text);
  const id = r.json().current.id as string;
  await waitUntil(async () => (await output(id)).state === 'failed', 20000);
  const o = await output(id);
  assert.match(o.lastError, new RegExp(`^encoder ${enc} cannot run here: .+ \\(use "auto" or "x264"\\)$`));
  assert.is(o.encoder, enc);
  assert.is(o.encoderInUse, null);
  assert.is(o.framesSent, 0);
  // Still answering, and the output stops cleanly.
  assert.is((await post('/outputs/enabled', { id, enabled: false })).status, 200);
  await waitUntil(async () => (await output(id)).state === 'stopped', 10000);
  assert.is((await post('/outputs/remove', { id })).status, 200);
});

test('probe: hardware in order nvenc, qsv, vaapi, each tried once; the first that works wins, else libx264', async () => {
  const tried: string[] = [];
  const fake = (listing: string[], works: string[], device = true) =>
    new EncoderProbe({
      ffmpeg: 'none',
      listing: async () => listing.map((e) => ` V....D ${e}  some encoder`).join('\n'),
      trial: async (e) => {
        tried.push(e);
        return works.includes(e) ? null : `no ${e} here`;
      },
      exists: () => device,
    });
  const all = ['libx264', 'h264_nvenc', 'h264_qsv', 'h264_vaapi'];
  const p = fake(all, ['h264_vaapi']);
  assert.is(p.autoEncoder(), null);
  assert.equal(await p.resolve('auto'), { ok: true, encoder: 'h264_vaapi' });
  assert.equal(await p.resolve('auto'), { ok: true, encoder: 'h264_vaapi' });
  assert.equal(await p.resolve('h264_nvenc'), {
    ok: false,
    reason: 'encoder h264_nvenc cannot run here: no h264_nvenc here (use "auto" or "x264")',
  });
  assert.equal(tried, ['h264_nvenc', 'h264_qsv', 'h264_vaapi']);
  assert.is(p.autoEncoder(), 'h264_vaapi');
  // Nothing works, or nothing is listed, or VAAPI has no render node: libx264, and untried encoders never run.
  tried.length = 0;
  assert.equal(await fake(all, [], false).resolve('auto'), { ok: true, encoder: 'libx264' });
  assert.equal(tried, ['h264_nvenc', 'h264_qsv']);
  const bare = fake(['libx264'], []);
  assert.equal(await bare.resolve('auto'), { ok: true, encoder: 'libx264' });
  assert.equal(await bare.resolve('x264'), { ok: true, encoder: 'libx264' });
  assert.match(((await bare.resolve('h264_qsv')) as { reason: string }).reason, /does not have it/);
  assert.equal(tried, ['h264_nvenc', 'h264_qsv']);
  assert.is(
    reasonOf('h264_nvenc', '[h264_nvenc @ 0x55] Cannot load libcuda.so.1\nError initializing output stream'),
    'Cannot load libcuda.so.1',
  );
});

test('codec arguments: the encoder is part of the shared-encode key; VAAPI uploads its frames to the device', () => {
  const base = { kind: 'stream' as const, width: 64, height: 36, fps: 25, bitrateKbps: 1000, url: 'udp://h:1', secrets: [] };
  assert.is.not(encodeKey({ ...base, encoder: 'libx264' }), encodeKey({ ...base, encoder: 'h264_nvenc' }));
  const x264 = encoderArgs({ ...base, encoder: 'libx264' }, []).args;
  assert.ok(x264.join(' ').includes('-c:v libx264 -preset veryfast -tune zerolatency -g 25'), x264.join(' '));
  const vaapi = encoderArgs({ ...base, encoder: 'h264_vaapi' }, []).args;
  assert.equal(vaapi.slice(0, 2), ['-vaapi_device', '/dev/dri/renderD128']);
  assert.match(vaapi[vaapi.indexOf('-vf') + 1]!, /,format=nv12,hwupload$/);
  assert.ok(vaapi.join(' ').includes('-b:v 1000k -maxrate 1000k -bufsize 500k'));
});

test.run();
