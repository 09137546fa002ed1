// Push latency: HTTP POST /global/dimmer to the `global` event received, with 1, 100 and 500 event clients connected
// (p50/p99 at one client, and until every client has it), and an OSC packet to the state applied (seen as the event).
// Writes bench/results/events.{md,json}.
import { spawn, type ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { createRequire } from 'node:module';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { freePort, runCli, tempDir, ROOT, sleep } from '../test/helpers/server.js';
import { connectWs, wsUrl, type WsClient } from '../test/helpers/ws.js';

const require = createRequire(import.meta.url);
const osc = require('osc') as { writePacket(p: unknown, o?: { metadata: boolean }): Uint8Array };
const SAMPLES = Number(process.env.VJD_BENCH_SAMPLES ?? 200);
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

function post(port: number, value: number): Promise<number> {
  const body = JSON.stringify({ value });
  return new Promise((resolve, reject) => {
    const r = request({ host: '127.0.0.1', port, path: '/api/v1/global/dimmer', method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': body.length } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    r.on('error', reject);
    r.end(body);
  });
}

async function start(): Promise<{ proc: ChildProcess; port: number; oscPort: number; dataDir: string }> {
  const dataDir = await tempDir('vjd-bench-events-');
  await mkdir(join(dataDir, 'media'));
  const port = await freePort();
  const oscPort = await freePort();
  const config = join(dataDir, 'config.json');
  await writeFile(
    config,
    JSON.stringify({
      render: { width: 320, height: 180, fps: 30 },
      server: { port, maxEventClients: 600 },
      osc: { enabled: true, host: '127.0.0.1', port: oscPort },
      live: { test: [], streams: [], v4l2: { enabled: false } },
    }),
  );
  const lic = await runCli(['license', 'activate', '--community', '--data-dir', dataDir]);
  if (lic.code !== 0) throw new Error(lic.stderr);
  const { DISPLAY: _d, ...env } = process.env;
  const proc = spawn(process.execPath, [join(ROOT, 'dist', 'src', 'cli.js'), 'serve', '--config', config, '--data-dir', dataDir], { env: { ...env, VJD_LOG_LEVEL: 'warn' }, stdio: 'ignore' });
  for (let i = 0; i < 300; i++) {
    try {
      if ((await post(port, 1)) === 200) return { proc, port, oscPort, dataDir };
    } catch {
      // not up yet
    }
    await sleep(100);
  }
  proc.kill('SIGKILL');
  throw new Error('server did not start');
}

/** Resolves when every client has an event showing this dimmer value: [first client ms, all clients ms]. */
function arrival(clients: WsClient[], value: number, t0: number): Promise<[number, number]> {
  return new Promise((resolve) => {
    let first = -1;
    let left = clients.length;
    for (const c of clients) {
      const onMessage = (data: Buffer): void => {
        const m = JSON.parse(data.toString());
        if (m.type !== 'event' || m.topic !== 'global' || m.data.dimmer !== value) return;
        c.ws.removeListener('message', onMessage);
        const t = performance.now() - t0;
        if (first < 0) first = t;
        if (--left === 0) resolve([first, t]);
      };
      c.ws.on('message', onMessage);
    }
  });
}

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! * 100) / 100;
};

async function main(): Promise<void> {
  const server = await start();
  const rows: Array<Record<string, number | string>> = [];
  const clients: WsClient[] = [];
  try {
    for (const n of [1, 100, 500]) {
      while (clients.length < n) {
        const c = await connectWs(wsUrl(`http://127.0.0.1:${server.port}`));
        await c.next((m) => m.type === 'hello');
        clients.push(c);
      }
      const one: number[] = [];
      const all: number[] = [];
      for (let i = 0; i < SAMPLES; i++) {
        const value = Math.round(((i % 97) + 1 + n * 1000) % 1000) / 1000;
        const t0 = performance.now();
        const got = arrival(clients, value, t0);
        if ((await post(server.port, value)) !== 200) throw new Error('POST failed');
        const [first, last] = await got;
        one.push(first);
        all.push(last);
        // The same value twice in a row publishes nothing: step off it.
        const off = value === 0.5 ? 0.25 : 0.5;
        const back = arrival(clients, off, performance.now());
        await post(server.port, off);
        await back;
      }
      rows.push({ measure: 'HTTP POST → event', clients: n, samples: SAMPLES, p50: pct(one, 50), p99: pct(one, 99), allP50: pct(all, 50), allP99: pct(all, 99) });
      console.log(rows.at(-1));
    }
    for (const c of clients.splice(1)) c.ws.terminate();
    const sender = createSocket('udp4');
    const oscTimes: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const value = (i % 2 === 0 ? 0.125 : 0.875);
      const t0 = performance.now();
      const got = arrival(clients, value, t0);
      sender.send(osc.writePacket({ address: '/vjd/global/dimmer', args: [{ type: 'f', value }] }, { metadata: true }), server.oscPort, '127.0.0.1');
      oscTimes.push((await got)[0]);
    }
    sender.close();
    rows.push({ measure: 'OSC packet → state applied (seen as the event)', clients: 1, samples: SAMPLES, p50: pct(oscTimes, 50), p99: pct(oscTimes, 99), allP50: pct(oscTimes, 50), allP99: pct(oscTimes, 99) });
    console.log(rows.at(-1));
  } finally {
    for (const c of clients) c.ws.terminate();
    server.proc.kill('SIGTERM');
    await sleep(500);
    await rm(server.dataDir, { recursive: true, force: true });
  }
  const md = [
    '| measure | clients | p50 ms (one client) | p99 ms | p50 ms (every client) | p99 ms |',
    '|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.measure} | ${r.clients} | ${r.p50} | ${r.p99} | ${r.allP50} | ${r.allP99} |`),
  ].join('\n');
  await mkdir(join(ROOT, 'bench', 'results'), { recursive: true });
  await writeFile(join(ROOT, 'bench', 'results', 'events.md'), `${md}\n`);
  await writeFile(join(ROOT, 'bench', 'results', 'events.json'), `${JSON.stringify({ samples: SAMPLES, rows }, null, 2)}\n`);
  console.log(md);
}

await main();
process.exit(0);
