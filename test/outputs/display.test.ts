// The display output on an X server of the test's own (Xvfb): a screenshot of that display (ffmpeg x11grab)
// shows the program's colours, a display output on an X server that is not there is `failed` and re-checked,
// and GET /capabilities lists `display` only while a configured display answers.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { startServer, req, waitUntil, type TestServer } from '../helpers/server.js';
import { meanRgb, run } from './media.js';

let xvfb: ChildProcess;
let display = '';
let server: TestServer;
const api = (p: string): string => `${server.base}/api/v1${p}`;
const output = async (id: string) =>
  ((await req('GET', api('/outputs'))).json().items as Array<Record<string, any>>).find((o) => o.id === id)!;

/** A display number nothing listens on (no socket file), far from the ones Xvfb -displayfd hands out. */
function deadDisplay(): string {
  let n = 7000 + Math.floor(Math.random() * 2000);
  while (existsSync(`/tmp/.X11-unix/X${n}`)) n++;
  return `:${n}`;
}

/** Xvfb on a free display number, or on `at` (-displayfd writes the number once the server accepts connections). */
function startXvfb(size: string, at?: string): Promise<{ proc: ChildProcess; name: string }> {
  return new Promise((resolve, reject) => {
    const args = [...(at ? [at] : []), '-displayfd', '3', '-nolisten', 'tcp', '-screen', '0', `${size}x24`, '-noreset'];
    const proc = spawn('Xvfb', args, { stdio: ['ignore', 'ignore', 'ignore', 'pipe'] });
    let out = '';
    proc.once('exit', (code) => reject(new Error(`Xvfb exited (${code})`)));
    (proc.stdio[3] as NodeJS.ReadableStream).on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^(\d+)\s*$/m.exec(out);
      if (m) resolve({ proc, name: `:${m[1]}` });
    });
  });
}

/** Mean colour of the whole screen, grabbed the way an operator would check it. */
async function screenRgb(on = display): Promise<[number, number, number]> {
  const r = await run('sh', [
    '-c',
    `ffmpeg -hide_banner -loglevel error -f x11grab -i ${on} -frames:v 1 -f rawvideo -pix_fmt rgb24 - | base64 -w0`,
  ]);
  if (r.code !== 0 || r.stdout.length === 0) throw new Error(`x11grab failed: ${r.stderr}`);
  return meanRgb(Buffer.from(r.stdout, 'base64'));
}

const base = {
  render: { width: 320, height: 180, fps: 30 },
  live: { test: [{ id: 'red', name: 'Red', pattern: 'color=c=red:size=320x180:rate=30' }], streams: [], v4l2: { enabled: false } },
};
const gone = deadDisplay();

test.before(async () => {
  ({ proc: xvfb, name: display } = await startXvfb('320x180'));
  server = await startServer({
    config: {
      ...base,
      outputs: [
        { id: 'proj', kind: 'display', enabled: true, display, fps: 15 },
        { id: 'gone', kind: 'display', enabled: true, display: gone },
      ],
    },
  });
  assert.is((await req('POST', api('/sources/select'), { body: { id: 'red' } })).status, 200);
});

test.after(async () => {
  await server?.cleanup();
  xvfb?.kill('SIGTERM');
});

test('the program fills the display: red source red, blackout black', async () => {
  await waitUntil(async () => (await output('proj')).state === 'running', 30000);
  const o = await output('proj');
  assert.is(o.target, display);
  // No geometry configured: the window is the whole screen.
  assert.equal([o.width, o.height, o.fps], [320, 180, 15]);
  assert.is(o.lastError, null);
  let rgb: number[] = [];
  await waitUntil(
    async () => {
      rgb = await screenRgb();
      return rgb[0]! > 200 && rgb[1]! < 50 && rgb[2]! < 50;
    },
    20000,
    250,
  ).catch(() => assert.unreachable(`screen not red: ${rgb.map(Math.round)}`));

  assert.is((await req('POST', api('/global/blackout'), { body: { enabled: true } })).status, 200);
  await waitUntil(async () => Math.max(...(rgb = await screenRgb())) < 10, 20000, 250).catch(() =>
    assert.unreachable(`screen not black: ${rgb.map(Math.round)}`),
  );
  assert.is((await req('POST', api('/global/blackout'), { body: { enabled: false } })).status, 200);
  await waitUntil(async () => (rgb = await screenRgb())[0]! > 200, 20000, 250);
});

test('a display whose X server is not there is failed and says why; it starts when the server comes up', async () => {
  await waitUntil(async () => (await output('gone')).state === 'failed', 20000);
  const o = await output('gone');
  assert.is(o.target, gone);
  assert.match(o.lastError, new RegExp(`X display ${gone} is not reachable`));
  assert.is(o.restarts, 0);
  // The other output and the render carry on.
  assert.is((await output('proj')).state, 'running');
  const status = (await req('GET', api('/status'))).json();
  assert.ok(status.render.fps > 0);
  assert.is(status.outputs.running, 1);

  const late = await startXvfb('160x90', gone);
  try {
    await waitUntil(async () => (await output('gone')).state === 'running', 30000);
    assert.equal([(await output('gone')).width, (await output('gone')).height], [160, 90]);
    await waitUntil(async () => (await screenRgb(gone))[0] > 200, 20000, 250);
  } finally {
    // SIGTERM: Xvfb removes its socket and lock file, so no stale display is left behind.
    late.proc.kill('SIGTERM');
  }
  // Its X server gone again: ffmpeg exits, the output is looked for again, never a crash.
  await waitUntil(async () => (await output('gone')).state === 'failed', 30000);
  assert.is(server.proc.exitCode, null);
});

test('capabilities: display listed while a configured display answers, not when none does', async () => {
  assert.ok((await req('GET', api('/capabilities'))).json().outputs.kinds.includes('display'));
  const other = await startServer({ config: { ...base, outputs: [{ id: 'gone', kind: 'display', enabled: false, display: gone }] } });
  try {
    const kinds = (await req('GET', `${other.base}/api/v1/capabilities`)).json().outputs.kinds;
    assert.equal(kinds, ['stream', 'record']);
  } finally {
    await other.cleanup();
  }
});

test.run();
