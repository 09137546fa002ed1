// Audio inputs managed live over real HTTP with real ffmpeg: a media library file added, selected and heard; a
// stream URL added, heard, edited (its reader restarts on the new URL) and removed while selected (detached); the
// added inputs back after a restart, and one whose id the config file gained since dropped with a log line; and the
// refusals (paths outside the library, a symlink out of it, schemes, option text, long strings, a duplicate id,
// config inputs), each naming the field, with nothing of them reaching an ffmpeg command line.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readFile, readdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { freePort, req, startServer, tempDir, waitUntil, type TestServer } from '../helpers/server.js';
import { connectWs, wsUrl } from '../helpers/ws.js';

let s: TestServer;
let dataDir: string;
const senders: ChildProcess[] = [];
const api = (p: string): string => `${s.base}/api/v1${p}`;
const get = (p: string) => req('GET', api(p));
const post = (p: string, body: unknown) => req('POST', api(p), { body, timeoutMs: 20000 });

const CLICK = "aevalsrc='if(lt(mod(t,0.5),0.03),0.8*sin(2*PI*1000*t),0)':s=48000";
const config = { audio: { inputs: [{ id: 'click', name: 'Click', kind: 'test', source: CLICK }], input: null } };

function ffmpeg(args: string[]): ChildProcess {
  const p = spawn('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-nostdin', ...args], { stdio: 'ignore' });
  senders.push(p);
  return p;
}

async function makeFile(args: string[]): Promise<void> {
  const p = ffmpeg(['-y', ...args]);
  const code = await new Promise<number | null>((r) => p.on('exit', r));
  assert.is(code, 0, `ffmpeg ${args.join(' ')}`);
}

/** A tone sent as MPEG-TS to the first client of a listening TCP port (it exits when that client goes). */
async function toneSender(frequency: number): Promise<string> {
  const port = await freePort();
  ffmpeg([
    '-re',
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=${frequency}:sample_rate=48000`,
    '-c:a',
    'mp2',
    '-f',
    'mpegts',
    `tcp://127.0.0.1:${port}?listen=1`,
  ]);
  return `tcp://127.0.0.1:${port}`;
}

async function levelsBecome(what: string, ok: (l: Record<string, number>) => boolean): Promise<void> {
  let last: Record<string, number> = {};
  try {
    await waitUntil(async () => ok((last = (await get('/audio/levels')).json())), 30_000, 100);
  } catch {
    assert.unreachable(`levels never became ${what}; last ${JSON.stringify(last)}; audio ${(await get('/audio')).text}`);
  }
}

/** Every argument of the server's ffmpeg children. */
async function ffmpegArgs(): Promise<string[]> {
  const out: string[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = await readFile(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== s.proc.pid) continue;
      out.push(...(await readFile(`/proc/${name}/cmdline`, 'utf8')).split('\0'));
    } catch {
      // the process ended while it was read
    }
  }
  return out;
}

const inputs = async (): Promise<any> => (await get('/audio/inputs')).json();
const item = async (id: string): Promise<any> => (await inputs()).items.find((i: any) => i.id === id);

test.before(async () => {
  dataDir = await tempDir();
  const media = join(dataDir, 'media');
  await mkdir(join(media, 'loops'), { recursive: true });
  await makeFile(['-f', 'lavfi', '-i', 'sine=frequency=80:sample_rate=48000:duration=3', join(media, 'loops', 'low.wav')]);
  await symlink('/etc/passwd', join(media, 'escape.wav'));
  s = await startServer({ config, dataDir });
});

test.after(async () => {
  for (const p of senders) p.kill('SIGKILL');
  await s?.cleanup();
});

test('GET /audio/inputs lists the config inputs with their origin and target', async () => {
  const a = await inputs();
  assert.equal(a.current, null);
  assert.equal(
    a.items.map((i: any) => [i.id, i.kind, i.origin, i.target, i.available, i.selected]),
    [['click', 'test', 'config', CLICK, true, false]],
  );
});

test('a library file added and selected is heard in GET /audio', async () => {
  const r = await post('/audio/inputs/add', { kind: 'file', file: 'loops/low.wav', name: 'Low tone' });
  assert.is(r.status, 200, r.text);
  assert.equal(r.json().input, {
    id: 'low-tone',
    name: 'Low tone',
    kind: 'file',
    target: 'loops/low.wav',
    origin: 'added',
    available: true,
    selected: false,
  });
  assert.ok((await get('/audio')).json().inputs.some((i: any) => i.id === 'low-tone' && i.kind === 'file'));
  // An added input is an action at once (a desk button selects it), and `file` is a kind this box opens.
  const actions = (await get('/actions')).json().items;
  assert.ok(
    actions.some((a: any) => a.id === 'audio.low-tone' && a.name === 'Audio: Low tone'),
    'the added input is an action',
  );
  assert.ok((await get('/capabilities')).json().audio.kinds.includes('file'));
  assert.is((await post('/actions/audio.low-tone', {})).status, 200);
  await levelsBecome('bass-heavy from the file', (l) => l.bass! > 0.5 && l.level! > 0.05);
  const a = (await get('/audio')).json();
  assert.equal([a.current, a.state], ['low-tone', 'running']);
  assert.ok((await item('low-tone')).selected);
  // The file reaches ffmpeg as a resolved path behind the file protocol alone.
  const args = await ffmpegArgs();
  assert.ok(args.includes(`file:${join(dataDir, 'media', 'loops', 'low.wav')}`), args.join(' '));
  assert.ok(args.includes('-protocol_whitelist') && args.includes('file'));
});

test('a stream URL added, heard, edited (its reader restarts) and removed while selected (detached)', async () => {
  const high = await toneSender(8000);
  const add = await post('/audio/inputs/add', { id: 'radio', kind: 'stream', url: high });
  assert.is(add.status, 200, add.text);
  assert.equal([add.json().input.target, add.json().input.name], [high, high.slice('tcp://'.length)]);
  assert.is((await post('/audio/select', { id: 'radio' })).status, 200);
  await levelsBecome('treble-heavy from the stream', (l) => l.high! > 0.5);

  const low = await toneSender(80);
  const edit = await post('/audio/inputs/edit', { id: 'radio', url: low, name: 'Radio' });
  assert.is(edit.status, 200, edit.text);
  assert.equal([edit.json().restarted, edit.json().input.target, edit.json().input.name], [true, low, 'Radio']);
  await levelsBecome('bass-heavy from the edited stream', (l) => l.bass! > 0.5 && l.high! < 0.2);
  // A new name alone leaves the reader as it is.
  assert.equal((await post('/audio/inputs/edit', { id: 'radio', name: 'Radio 2' })).json().restarted, false);

  const rm = await post('/audio/inputs/remove', { id: 'radio' });
  assert.is(rm.status, 200, rm.text);
  assert.equal([rm.json().detached, rm.json().removed.id], [true, 'radio']);
  const a = (await get('/audio')).json();
  assert.equal([a.current, a.state], [null, 'stopped']);
  assert.not.ok(a.inputs.some((i: any) => i.id === 'radio'));
  await levelsBecome('silent once detached', (l) => l.level === 0);
});

test('another client hears the change on the `audioInputs` topic', async () => {
  const c = await connectWs(wsUrl(s.base));
  try {
    await c.next((m) => m.type === 'hello');
    c.send({ type: 'subscribe', topics: ['audioInputs'] });
    await c.next((m) => m.type === 'subscribed');
    assert.is((await post('/audio/inputs/add', { id: 'pushed', kind: 'program' })).status, 200);
    const e = await c.next((m) => m.type === 'event' && m.topic === 'audioInputs' && m.data.items.some((i: any) => i.id === 'pushed'));
    assert.equal(e.data.items.find((i: any) => i.id === 'pushed').origin, 'added');
    assert.is((await post('/audio/inputs/remove', { id: 'pushed' })).status, 200);
    await c.next((m) => m.type === 'event' && m.topic === 'audioInputs' && !m.data.items.some((i: any) => i.id === 'pushed'));
  } finally {
    c.close();
  }
});

test('refused: paths outside the library, schemes, option text, long strings, duplicates, config inputs', async () => {
  const before = await inputs();
  const refusals: Array<[unknown, number, string, string]> = [
    [{ kind: 'file', file: '../../etc/passwd' }, 400, 'INVALID_REQUEST', 'file'],
    [{ kind: 'file', file: '/etc/passwd' }, 400, 'INVALID_REQUEST', 'file'],
    [{ kind: 'file', file: 'escape.wav' }, 400, 'INVALID_REQUEST', 'file'],
    [{ kind: 'file', file: 'loops/missing.wav' }, 400, 'INVALID_REQUEST', 'file'],
    [{ kind: 'file', file: '-i' }, 400, 'INVALID_REQUEST', 'file'],
    [{ kind: 'stream', url: 'file:///etc/passwd' }, 400, 'INVALID_REQUEST', 'url'],
    [{ kind: 'stream', url: 'concat:/etc/passwd' }, 400, 'INVALID_REQUEST', 'url'],
    [{ kind: 'stream', url: '-i' }, 400, 'INVALID_REQUEST', 'url'],
    [{ kind: 'stream', url: `http://example.invalid/${'a'.repeat(3000)}` }, 400, 'INVALID_REQUEST', 'url'],
    [{ kind: 'stream', file: 'loops/low.wav' }, 400, 'INVALID_REQUEST', 'file'],
    [{ kind: 'alsa', device: '-i' }, 400, 'INVALID_REQUEST', 'device'],
    [{ kind: 'test', name: 'graph' }, 400, 'INVALID_REQUEST', 'kind'],
    [{ kind: 'program', name: 'x'.repeat(200) }, 400, 'INVALID_REQUEST', 'name'],
    [{ kind: 'program', id: 'x'.repeat(100) }, 400, 'INVALID_REQUEST', 'id'],
    [{ kind: 'program', id: 'click' }, 409, 'AUDIO_INPUT_EXISTS', 'id'],
    [{ kind: 'file', file: 'loops/low.wav', id: 'LOW-TONE' }, 409, 'AUDIO_INPUT_EXISTS', 'id'],
  ];
  for (const [body, status, code, field] of refusals) {
    const r = await post('/audio/inputs/add', body);
    assert.is(r.status, status, `${JSON.stringify(body).slice(0, 80)}: ${r.text}`);
    assert.equal([r.json().code, r.json().details?.field], [code, field], r.text);
    assert.ok(r.json().message.includes(field), r.text);
  }
  for (const [path, body] of [
    ['/audio/inputs/remove', { id: 'click' }],
    ['/audio/inputs/edit', { id: 'click', name: 'Mine' }],
  ] as const) {
    const r = await post(path, body);
    assert.equal([r.status, r.json().code], [409, 'AUDIO_INPUT_CONFIGURED'], r.text);
    assert.ok(r.json().message.includes('config'), r.text);
  }
  const missing = await post('/audio/inputs/remove', { id: 'nope' });
  assert.equal([missing.status, missing.json().code], [404, 'ITEM_NOT_FOUND']);
  const badEdit = await post('/audio/inputs/edit', { id: 'low-tone', url: 'rtmp://host/app/key' });
  assert.equal([badEdit.status, badEdit.json().details?.field], [400, 'url'], badEdit.text);
  // Nothing changed, and nothing of the refused values reached an ffmpeg command line.
  assert.equal(await inputs(), before);
  const args = (await ffmpegArgs()).join(' ');
  for (const bad of ['passwd', 'concat:', 'escape.wav', 'missing.wav']) assert.not.ok(args.includes(bad), `${bad} in ${args}`);
});

test('the added inputs and the selection are back after a restart; an id the config took is dropped', async () => {
  assert.is((await post('/audio/inputs/add', { id: 'later', kind: 'program' })).status, 200);
  assert.is((await post('/audio/inputs/add', { id: 'gone', kind: 'stream', url: 'srt://127.0.0.1:9' })).status, 200);
  assert.is((await post('/audio/select', { id: 'low-tone' })).status, 200);
  await s.stop();
  const gained = {
    audio: { ...config.audio, inputs: [...config.audio.inputs, { id: 'gone', name: 'Gone', kind: 'test', source: CLICK }] },
  };
  s = await startServer({ config: gained, dataDir });
  const a = await inputs();
  assert.equal(
    a.items.map((i: any) => [i.id, i.kind, i.origin]),
    [
      ['click', 'test', 'config'],
      ['gone', 'test', 'config'],
      ['low-tone', 'file', 'added'],
      ['later', 'program', 'added'],
    ],
  );
  assert.ok(s.logs().includes('an added audio input has an id the config file now uses'));
  await levelsBecome('bass-heavy from the restored file input', (l) => l.bass! > 0.5);
  assert.is((await get('/audio')).json().current, 'low-tone');
});

test.run();
