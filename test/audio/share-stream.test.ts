// An audio `stream` input with the URL of a listening live input over real HTTP with real ffmpeg: one reader (one
// listening socket, the sender connects once) decodes the picture for the program and the 8 kHz tone for the audio
// side; deselecting the audio leaves the picture and the connection alone; the audio role alone keeps the reader
// open and releasing it closes it; a bad URL in the config is refused naming its key.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { editConfig, freePort, req, sampleOutput, sleep, startServer, waitUntil, type TestServer } from '../helpers/server.js';
import { near } from '../helpers/images.js';

let s: TestServer;
let port = 0;
let url = '';
const api = (p: string): string => `${s.base}/api/v1${p}`;
const get = (p: string) => req('GET', api(p));
const post = (p: string, body: unknown) => req('POST', api(p), { body, timeoutMs: 20000 });
const RED: [number, number, number] = [255, 0, 0];
const SOLID: [number, number, number] = [0, 153, 255];

const levels = async (): Promise<Record<string, number>> => (await get('/audio/levels')).json();

async function levelsBecome(what: string, ok: (l: Record<string, number>) => boolean): Promise<Record<string, number>> {
  let last: Record<string, number> = {};
  try {
    await waitUntil(async () => ok((last = await levels())), 30_000, 100);
  } catch {
    assert.unreachable(`levels never became ${what}; last ${JSON.stringify(last)}`);
  }
  return last;
}

/** The server's ffmpeg children that read the listening URL (by their command line). */
async function readersOfUrl(): Promise<number[]> {
  const out: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = await readFile(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== s.proc.pid) continue;
      const cmd = (await readFile(`/proc/${name}/cmdline`, 'utf8')).split('\0');
      if (cmd.includes(url)) out.push(Number(name));
    } catch {
      // the process ended while it was read
    }
  }
  return out;
}

/**
 * A camera pushing red video and an 8 kHz tone to the listening input: started again while nothing accepts it,
 * until settle(); from then on the running one is the only connection, and it exits if the listener drops it.
 */
class Sender {
  proc: ChildProcess | null = null;
  private looping = true;
  private readonly loop: Promise<void>;

  constructor() {
    this.loop = (async () => {
      while (this.looping) {
        if (!this.running()) {
          this.proc = spawn(
            'ffmpeg',
            [
              '-hide_banner',
              '-loglevel',
              'error',
              '-re',
              '-f',
              'lavfi',
              '-i',
              'color=c=red:s=320x240:r=25',
              '-re',
              '-f',
              'lavfi',
              '-i',
              'sine=frequency=8000:sample_rate=48000',
              '-f',
              'mpegts',
              `tcp://127.0.0.1:${port}`,
            ],
            { stdio: 'ignore' },
          );
        }
        await sleep(300);
      }
    })();
  }

  async settle(): Promise<ChildProcess> {
    this.looping = false;
    await this.loop;
    assert.ok(this.running(), 'the connected sender is running');
    return this.proc!;
  }

  running(): boolean {
    return this.proc !== null && this.proc.exitCode === null && this.proc.signalCode === null;
  }

  stop(): void {
    this.looping = false;
    this.proc?.kill('SIGKILL');
  }
}

const sender = (): Sender => new Sender();
let cam: Sender | null = null;

test.before(async () => {
  port = await freePort();
  url = `tcp://127.0.0.1:${port}?listen`;
  s = await startServer({
    config: {
      live: { test: [], streams: [{ id: 'cam', name: 'Cam', url }], v4l2: { enabled: false } },
      audio: { inputs: [{ id: 'cam-audio', name: 'Cam audio', kind: 'stream', url }], input: null },
    },
  });
  assert.is((await post('/sources/select', { id: 'source:solid_color' })).status, 200);
});

test.after(async () => {
  cam?.stop();
  await s?.cleanup();
});

test('the stream of the program video as audio: one reader, one connection, the tone reads high', async () => {
  cam = sender();
  const sel = await post('/inputs/live/select', { id: 'cam' });
  assert.is(sel.status, 200, sel.text);
  const connected = await cam.settle();
  assert.ok(near((await sampleOutput(s.base))[0]!, RED), 'the sender is on the output');
  const a = await post('/audio/select', { id: 'cam-audio' });
  assert.is(a.status, 200, a.text);
  await levelsBecome('treble-heavy', (v) => v.high! > 0.8 && v.bass! < 0.1);
  // A stall on a loaded box restarts the audio reader for a moment ("starting"); it runs again by itself.
  await waitUntil(async () => (await get('/audio')).json().state === 'running', 30000, 100);
  assert.equal((await readersOfUrl()).length, 1, 'one ffmpeg reads the listening URL');
  assert.ok(cam.running(), 'the sender kept its one connection');
  assert.is(cam.proc!.pid, connected.pid);
});

test('deselecting the audio leaves the picture and the connection alone', async () => {
  const pids = await readersOfUrl();
  assert.is((await post('/audio/select', { id: 'none' })).status, 200);
  await levelsBecome('zero', (v) => v.level === 0 && v.high === 0);
  const from = Date.now();
  while (Date.now() - from < 3000) {
    assert.ok(near((await sampleOutput(s.base))[0]!, RED), 'the picture stays');
    await sleep(200);
  }
  assert.ok(cam!.running(), 'the sender is still connected');
  assert.equal(await readersOfUrl(), pids, 'the same reader process');
});

test('the audio role alone keeps the reader open; releasing it closes the reader', async () => {
  assert.is((await post('/audio/select', { id: 'cam-audio' })).status, 200);
  await levelsBecome('treble-heavy', (v) => v.high! > 0.8);
  const pids = await readersOfUrl();
  const back = await post('/sources/select', { id: 'source:solid_color' });
  assert.is(back.status, 200, back.text);
  assert.ok(near((await sampleOutput(s.base))[0]!, SOLID, 8));
  const l = await levels();
  await levelsBecome('still analysed', (v) => v.hops! > l.hops! + 50 && v.high! > 0.8);
  assert.equal(await readersOfUrl(), pids, 'the reader outlived the program role');
  assert.ok(cam!.running());
  assert.is((await post('/audio/select', { id: 'none' })).status, 200);
  await waitUntil(async () => (await readersOfUrl()).length === 0, 20000);
  // The listener's end is closed, so the sender's one connection ends.
  await waitUntil(() => !cam!.running(), 20000);
});

test('a bad stream URL in the config is refused naming its key', async () => {
  await editConfig(s, (c) => {
    c.audio.inputs.push({ id: 'bad', name: 'Bad', kind: 'stream', url: '-i /etc/passwd' });
  });
  let st: any = {};
  await waitUntil(async () => (st = (await get('/status')).json()).reloadError !== null, 20000).catch(() => {
    assert.unreachable(`the reload was not refused: ${JSON.stringify(st.reloadError)}`);
  });
  assert.is(st.reloadError.key, 'audio.inputs[1].url', JSON.stringify(st.reloadError));
  assert.match(st.reloadError.message, /audio\.inputs\[1\]\.url must be a URL/);
  // The running configuration is untouched.
  assert.equal(
    (await get('/audio')).json().inputs.map((i: any) => i.id),
    ['cam-audio'],
  );
});

test.run();
