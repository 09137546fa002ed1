// DMX: frame to state applied (the receiver's own arrival-to-reply times, and what a client polling GET /dmx sees),
// then a desk's full Art-Net frame rate on several universes with every channel changing: the main thread's event-loop delay
// and GET /status latency with and without it, in interleaved rounds on one server.
import { mkdir, writeFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { artDmx, udpSender } from '../test/helpers/dmx.js';
import { freeUdpPort } from '../test/helpers/osc.js';
import { req, ROOT, sleep, startServer } from '../test/helpers/server.js';

const SECONDS = Number(process.env.VJD_BENCH_SECONDS ?? 6);
const ROUNDS = Number(process.env.VJD_BENCH_ROUNDS ?? 3);
const FPS = 44;
const UNIVERSES = 4;
const LATENCY_FRAMES = 200;

const dmxPort = await freeUdpPort();
const s = await startServer({
  env: { VJD_LOG_LEVEL: 'warn' },
  config: {
    render: { width: 320, height: 180, fps: 30 },
    live: { test: [], streams: [], v4l2: { enabled: false } },
    dmx: { enabled: true, protocol: 'artnet', universe: 0, address: 1, port: dmxPort, personality: { layers: 4, params: 4 } },
  },
});
const desk = await udpSender();
const api = (p: string) => `${s.base}/api/v1${p}`;
const dmx = async () => (await req('GET', api('/dmx'))).json();
const q = (xs: number[], p: number): number => {
  const v = [...xs].sort((a, b) => a - b);
  return Math.round(v[Math.min(v.length - 1, Math.floor(p * v.length))]! * 100) / 100;
};

// Frame to state: one changed channel (the dimmer) per frame; the client polls GET /dmx until the request is applied.
const slots = new Uint8Array(512);
const observed: number[] = [];
for (let i = 0; i < LATENCY_FRAMES; i++) {
  const before = (await dmx()).applied;
  slots[0] = 1 + (i % 254);
  const t0 = performance.now();
  await desk.send(artDmx(0, slots), dmxPort);
  while ((await dmx()).applied === before) await new Promise((r) => setImmediate(r));
  observed.push(performance.now() - t0);
  await sleep(10);
}
const server = (await dmx()).applyMs;

function getStatus(agent: Agent): Promise<number> {
  return new Promise((ok, fail) => {
    const t0 = process.hrtime.bigint();
    const r = request({ host: '127.0.0.1', port: s.port, path: '/api/v1/status', agent }, (res) => {
      res.resume();
      res.on('end', () => ok(Number(process.hrtime.bigint() - t0) / 1e6));
    });
    r.on('error', fail);
    r.end();
  });
}

/** GET /status latencies and the event-loop delay p99 over SECONDS, with or without the DMX stream. */
async function phase(load: boolean): Promise<{ http: number[]; loopP99: number }> {
  await req('POST', api('/_test/audio-probe'), { body: {} });
  const began = Date.now();
  let sent = 0;
  const frame = new Uint8Array(512);
  const timer = load
    ? setInterval(() => {
        const due = Math.floor(((Date.now() - began) / 1000) * FPS);
        for (; sent < due; sent++) {
          // Every channel changes every frame.
          for (let k = 0; k < 512; k++) frame[k] = (sent * 7 + k) & 0xff;
          for (let u = 0; u < UNIVERSES; u++) void desk.send(artDmx(u, frame, sent), dmxPort);
        }
      }, 5)
    : undefined;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const http: number[] = [];
  while (Date.now() - began < SECONDS * 1000) {
    http.push(await getStatus(agent));
    await sleep(20);
  }
  clearInterval(timer);
  agent.destroy();
  const probe = (await req('POST', api('/_test/audio-probe'), { body: {} })).json();
  return { http, loopP99: probe.loopDelayMs.p99 };
}

const acc = { quiet: { http: [] as number[], loop: [] as number[] }, load: { http: [] as number[], loop: [] as number[] } };
const before = await dmx();
for (let round = 0; round < ROUNDS; round++) {
  for (const load of [false, true]) {
    const r = await phase(load);
    const a = load ? acc.load : acc.quiet;
    a.http.push(...r.http);
    a.loop.push(r.loopP99);
    await sleep(1000);
  }
}
const after = await dmx();
await s.cleanup();
desk.close();

const loop = (xs: number[]) => Math.round(Math.max(...xs) * 100) / 100;
const rows = [
  { phase: 'without DMX', httpP50: q(acc.quiet.http, 0.5), httpP99: q(acc.quiet.http, 0.99), loopP99: loop(acc.quiet.loop) },
  {
    phase: `${FPS} fps × ${UNIVERSES} universes`,
    httpP50: q(acc.load.http, 0.5),
    httpP99: q(acc.load.http, 0.99),
    loopP99: loop(acc.load.loop),
  },
];
const ratio = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 100) / 100 : 1);
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}`;
const counts = {
  frames: after.frames - before.frames,
  wrongUniverse: after.wrongUniverse - before.wrongUniverse,
  applied: after.applied - before.applied,
  rejected: after.rejected - before.rejected,
  dropped: after.dropped - before.dropped,
};
let md = `DMX (Art-Net on loopback, personality of 4 layers and 4 parameters); ${machine}\n\n`;
md += `Frame to state applied, ${LATENCY_FRAMES} frames changing the dimmer: receiver arrival to reply p50 ${server.p50} ms, p99 ${server.p99} ms; `;
md += `client send to GET /dmx showing it (includes the polling round trip) p50 ${q(observed, 0.5)} ms, p99 ${q(observed, 0.99)} ms.\n\n`;
md += `| phase | GET /status p50 ms | GET /status p99 ms | event-loop delay p99 ms |\n|---|---|---|---|\n`;
for (const r of rows) md += `| ${r.phase} | ${r.httpP50} | ${r.httpP99} | ${r.loopP99} |\n`;
md += `| ratio (without / with) | ${ratio(rows[0]!.httpP50, rows[1]!.httpP50)} | ${ratio(rows[0]!.httpP99, rows[1]!.httpP99)} | ${ratio(rows[0]!.loopP99, rows[1]!.loopP99)} |\n\n`;
md += `${ROUNDS} interleaved rounds of ${SECONDS} s per phase; during the DMX phases: ${JSON.stringify(counts)}.\n`;
process.stdout.write(md);
const dir = join(ROOT, 'bench', 'results');
await mkdir(dir, { recursive: true });
await writeFile(join(dir, 'dmx.md'), md);
await writeFile(
  join(dir, 'dmx.json'),
  JSON.stringify({ machine, server, observed: { p50: q(observed, 0.5), p99: q(observed, 0.99) }, rows, counts }, null, 2),
);
