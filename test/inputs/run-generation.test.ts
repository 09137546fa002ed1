// A listening input between connections over real HTTP: its reader is held (cued on preview) while its sender
// disconnects; a select then must not answer on the ended connection's last frame (red), only on a frame of a
// new connection (green), or with 504 ACTIVATION_TIMEOUT while no sender is there.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { startServer, req, freePort, sleep, waitUntil, sampleOutput, type TestServer, type Res } from '../helpers/server.js';
import { near } from '../helpers/images.js';

let s: TestServer;
let port = 0;
const api = (p: string): string => `${s.base}/api/v1${p}`;
const post = (p: string, body: unknown): Promise<Res> => req('POST', api(p), { body, timeoutMs: 20000 });
const RED: [number, number, number] = [255, 0, 0];
const GREEN: [number, number, number] = [0, 128, 0];
const SOLID: [number, number, number] = [0, 153, 255];

/** An encoder pushing one colour to the listening input, started again until the listener accepts it. */
class Sender {
  private proc: ChildProcess | null = null;
  private looping = true;

  constructor(color: string) {
    void (async () => {
      while (this.looping) {
        if (!this.proc || this.proc.exitCode !== null || this.proc.signalCode !== null) {
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
              `color=c=${color}:s=320x240:r=25`,
              '-f',
              'mpegts',
              `tcp://127.0.0.1:${port}`,
            ],
            {
              stdio: 'ignore',
            },
          );
        }
        await sleep(300);
      }
    })();
  }

  stop(): void {
    this.looping = false;
    this.proc?.kill('SIGKILL');
  }
}

/** Ingest log lines saying the input's ffmpeg exited. */
const exits = (): number =>
  s
    .logs()
    .split('\n')
    .filter((l) => l.includes('ffmpeg exited') && l.includes('live:cam')).length;

test.before(async () => {
  port = await freePort();
  s = await startServer({
    config: { live: { test: [], streams: [{ id: 'cam', name: 'Cam', url: `tcp://127.0.0.1:${port}?listen` }], v4l2: { enabled: false } } },
  });
  const r = await post('/sources/select', { id: 'source:solid_color' });
  assert.is(r.status, 200, r.text);
});

test.after(async () => {
  await s?.cleanup();
});

test('a select after the sender left answers 504, and 200 only on a frame of the next sender', async () => {
  const red = new Sender('red');
  try {
    // Cued on preview: the reader stays held (and keeps its last red frame) after the sender leaves.
    await waitUntil(async () => (await post('/mix/cue', { id: 'cam' })).status === 200, 40000, 200);
  } finally {
    red.stop();
  }
  const before = exits();
  await waitUntil(() => exits() > before, 20000, 100);

  const sel = await post('/inputs/live/select', { id: 'cam' });
  assert.is(sel.status, 504, `no sender is connected, yet the select answered ${sel.status}: ${sel.text}`);
  assert.is(sel.json().code, 'ACTIVATION_TIMEOUT');
  assert.is((await req('GET', api('/sources/current'))).json().id, 'source:solid_color');
  const px = (await sampleOutput(s.base))[0]!;
  assert.ok(near(px, SOLID, 8), `the previous source keeps the output, not the ended connection's frame (${px})`);

  const green = new Sender('green');
  try {
    let ok: Res | null = null;
    await waitUntil(
      async () => {
        const r = await post('/inputs/live/select', { id: 'cam' });
        if (r.status === 200) ok = r;
        else assert.is(r.status, 504, r.text);
        return ok !== null;
      },
      60000,
      200,
    );
    assert.is(ok!.json().current.id, 'cam');
    const shown = (await sampleOutput(s.base))[0]!;
    assert.ok(near(shown, GREEN), `the select answered on the new sender's frame (output ${shown})`);
    assert.not.ok(near(shown, RED));
  } finally {
    green.stop();
  }
});

test.run();
