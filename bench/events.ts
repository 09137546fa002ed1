// Push latency: HTTP POST /global/dimmer to the `global` event received, with 1, 100 and 500 event clients connected
// (p50/p99 at one client, and until every client has it), and an OSC packet to the state applied (seen as the event).
// Writes bench/results/events.{md,json}.
import { createSocket } from 'node:dgram';
import { createRequire } from 'node:module';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, sleep } from '../test/helpers/server.js';
import { post, start } from './events-lib.js';
import { connectWs, wsUrl, type WsClient } from '../test/helpers/ws.js';

const require = createRequire(import.meta.url);
const osc = require('osc') as { writePacket(p: unknown, o?: { metadata: boolean }): Uint8Array };
const SAMPLES = Number(process.env.VJD_BENCH_SAMPLES ?? 200);
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
      rows.push({
        measure: 'HTTP POST → event',
        clients: n,
        samples: SAMPLES,
        p50: pct(one, 50),
        p99: pct(one, 99),
        allP50: pct(all, 50),
        allP99: pct(all, 99),
      });
      console.log(rows.at(-1));
    }
    for (const c of clients.splice(1)) c.ws.terminate();
    const sender = createSocket('udp4');
    const oscTimes: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const value = i % 2 === 0 ? 0.125 : 0.875;
      const t0 = performance.now();
      const got = arrival(clients, value, t0);
      sender.send(
        osc.writePacket({ address: '/vjd/global/dimmer', args: [{ type: 'f', value }] }, { metadata: true }),
        server.oscPort,
        '127.0.0.1',
      );
      oscTimes.push((await got)[0]);
    }
    sender.close();
    rows.push({
      measure: 'OSC packet → state applied (seen as the event)',
      clients: 1,
      samples: SAMPLES,
      p50: pct(oscTimes, 50),
      p99: pct(oscTimes, 99),
      allP50: pct(oscTimes, 50),
      allP99: pct(oscTimes, 99),
    });
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
