// MIDI: raw message to state applied. Messages go in through the entry the device ports use (the test hook hands
// them over), one CC moving the dimmer at a time; the service's own arrival-to-reply times are read from GET /midi.
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { req, ROOT, sleep, startServer } from '../test/helpers/server.js';

const MESSAGES = 300;

const s = await startServer({
  env: { VJD_LOG_LEVEL: 'warn' },
  config: {
    render: { width: 320, height: 180, fps: 30 },
    live: { test: [], streams: [], v4l2: { enabled: false } },
    midi: { enabled: true, mappings: [{ type: 'cc', number: 7, to: '/vjd/global/dimmer' }] },
  },
});
const api = (p: string) => `${s.base}/api/v1${p}`;
const midi = async () => (await req('GET', api('/midi'))).json();
for (let i = 0; i < MESSAGES; i++) {
  const before = (await midi()).applied;
  await req('POST', api('/_test/midi'), { body: { port: 'bench', messages: [[0xb0, 7, i % 128]] } });
  while ((await midi()).applied === before) await new Promise((r) => setImmediate(r));
  await sleep(5);
}
const m = (await midi()).applyMs;
await s.cleanup();
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}`;
const md = `MIDI raw message (CC to the dimmer) to state applied, ${m.count} of ${MESSAGES} messages (the latest ${m.count}): p50 ${m.p50} ms, p99 ${m.p99} ms; ${machine}\n`;
process.stdout.write(md);
const dir = join(ROOT, 'bench', 'results');
await mkdir(dir, { recursive: true });
await writeFile(join(dir, 'midi.md'), md);
await writeFile(join(dir, 'midi.json'), JSON.stringify({ machine, messages: MESSAGES, applyMs: m }, null, 2));
