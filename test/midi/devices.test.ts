// MIDI device I/O through the ALSA sequencer: virtual ports made by the test appear at GET /midi (hot-plug), a CC
// sent into one moves the dimmer, feedback comes back out, and the ports vanish when closed. Where the sequencer is
// missing (no /dev/snd) the test reports itself as not run; the server then says MIDI is unavailable and runs on.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { req, startServer, waitUntil, type TestServer } from '../helpers/server.js';

type Port = { openVirtualPort(name: string): void; closePort(): void };
type In = Port & { on(e: 'message', fn: (dt: number, m: number[]) => void): void; ignoreTypes(a: boolean, b: boolean, c: boolean): void };
type Out = Port & { sendMessage(m: number[]): void };

let why: string | null = null;
let lib: { Input: new () => In; Output: new () => Out } | null = null;
try {
  lib = (await import('@julusian/midi')) as unknown as { Input: new () => In; Output: new () => Out };
  new lib.Input().closePort();
} catch (err) {
  why = ((err as Error).message ?? String(err)).split('\n')[0]!;
}

const NAME = 'vjd-test-keys';
let s: TestServer;
const get = async (p: string) => (await req('GET', `${s.base}/api/v1${p}`, { timeoutMs: 15000 })).json();
const until = (cond: () => Promise<boolean> | boolean) => waitUntil(cond, 20_000, 100);

(why === null ? test : test.skip)('virtual ports are seen, drive the show and hear its feedback', async () => {
  s = await startServer({
    config: {
      render: { width: 64, height: 48, fps: 20 },
      midi: { enabled: true, mappings: [{ type: 'cc', number: 7, port: NAME, to: '/vjd/global/dimmer', feedback: true }] },
    },
  });
  try {
    assert.is((await get('/midi')).available, true);
    const keys = new lib!.Output();
    keys.openVirtualPort(`${NAME} out`);
    const leds = new lib!.Input();
    const heard: number[][] = [];
    leds.on('message', (_dt, m) => heard.push(m));
    leds.openVirtualPort(`${NAME} in`);
    await until(async () => {
      const m = await get('/midi');
      return m.inputs.some((n: string) => n.includes(NAME)) && m.outputs.some((n: string) => n.includes(NAME));
    });
    keys.sendMessage([0xb0, 7, 32]);
    await until(async () => (await get('/global')).dimmer === 32 / 127);
    await req('POST', `${s.base}/api/v1/global/dimmer`, { body: { value: 1 } });
    await until(() => heard.some((m) => m.join(',') === '176,7,127'));
    keys.closePort();
    leds.closePort();
    await until(async () => !(await get('/midi')).inputs.some((n: string) => n.includes(NAME)));
  } finally {
    await s.cleanup();
  }
});
if (why !== null) console.log(`not run: MIDI device I/O through the ALSA sequencer (${why})`);

test.run();
