// Events soak: 500 event clients connected for 60 s while POST /global/dimmer changes state every 50 ms. Checks every
// client's seq for gaps and that each saw the last change, samples the server's RSS each second, and measures
// GET /status throughput (wrk) without the clients (before and after) and with them (mid-soak), in one run.
// Writes bench/results/events-soak.{md,json}.
import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import WebSocket from 'ws';
import { ROOT, sleep } from '../test/helpers/server.js';
import { post, start } from './events-lib.js';

const run = promisify(execFile);
const CLIENTS = Number(process.env.VJD_SOAK_CLIENTS ?? 500);
const SECONDS = Number(process.env.VJD_SOAK_SECONDS ?? 60);
const MUTATION_MS = 50;
const WRK_DURATION = process.env.VJD_BENCH_DURATION ?? '5s';
const WRK_CONNECTIONS = Number(process.env.VJD_BENCH_CONNECTIONS ?? 64);
/** Server on core 0; wrk and this process (the clients, the mutator) on core 1, as in bench/http-bench.ts. */
const SERVER_CPU = '0';
const LOAD_CPU = '1';

/** A lean client: keeps the last seq, gaps, hellos and the last dimmer seen, not the messages (500 of them for 60 s). */
interface Counter {
  ws: WebSocket;
  lastSeq: number;
  gaps: number;
  hellos: number;
  events: number;
  lastDimmer: number | null;
  closed: boolean;
}

const SEQ = /^\{"type":"event","seq":(\d+)/;
const DIMMER = /"dimmer":(-?[\d.e+-]+)/;

function connect(url: string): Promise<Counter> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const c: Counter = { ws, lastSeq: 0, gaps: 0, hellos: 0, events: 0, lastDimmer: null, closed: false };
    ws.on('message', (data) => {
      const text = data.toString();
      // Events are read by their fixed prefix, not parsed: this process shares its core with wrk.
      if (text.startsWith('{"type":"event"')) {
        const seq = Number(SEQ.exec(text)?.[1]);
        if (seq !== c.lastSeq + 1) c.gaps++;
        c.lastSeq = seq;
        if (text.includes('"topic":"global"')) {
          c.events++;
          c.lastDimmer = Number(DIMMER.exec(text)?.[1]);
        }
        return;
      }
      const m = JSON.parse(text) as { type: string; seq: number; state?: { global?: { dimmer?: number } } };
      if (m.seq !== c.lastSeq + 1) c.gaps++;
      c.lastSeq = m.seq;
      if (m.type === 'hello') {
        c.hellos++;
        c.lastDimmer = m.state?.global?.dimmer ?? null;
        resolve(c);
      }
    });
    ws.on('close', () => (c.closed = true));
    ws.on('error', reject);
  });
}

/** Runs of wrk per phase: their median is the phase's number (a shared machine drifts; one run can land on a spike). */
const WRK_RUNS = Number(process.env.VJD_SOAK_WRK_RUNS ?? 3);

async function wrkOnce(url: string): Promise<number> {
  const { stdout } = await run('taskset', ['-c', LOAD_CPU, 'wrk', '-t1', `-c${WRK_CONNECTIONS}`, `-d${WRK_DURATION}`, url], { maxBuffer: 1 << 20 });
  return Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? NaN);
}

async function wrk(url: string, runs: number[]): Promise<number> {
  const mine: number[] = [];
  for (let i = 0; i < WRK_RUNS; i++) mine.push(await wrkOnce(url));
  runs.push(...mine.map(Math.round));
  return mine.sort((a, b) => a - b)[Math.floor(mine.length / 2)]!;
}

async function rssMiB(pid: number): Promise<number> {
  const text = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(text)?.[1] ?? NaN) / 1024;
}

async function main(): Promise<void> {
  await run('taskset', ['-c', '-p', LOAD_CPU, String(process.pid)]);
  const server = await start();
  const pid = server.proc.pid!;
  const base = `http://127.0.0.1:${server.port}`;
  const clients: Counter[] = [];
  try {
    await run('taskset', ['-a', '-p', '-c', SERVER_CPU, String(pid)]);
    const runs = { before: [] as number[], with: [] as number[], after: [] as number[] };
    const without1 = await wrk(`${base}/api/v1/status`, runs.before);
    process.stderr.write(`GET /status without clients: ${without1} req/s\n`);

    while (clients.length < CLIENTS) clients.push(await connect(`ws://127.0.0.1:${server.port}/api/v1/events`));
    process.stderr.write(`${clients.length} clients connected\n`);

    // The mutator: a new dimmer value every 50 ms (never the same twice in a row, so each one is a change).
    let mutations = 0;
    let failed = 0;
    let value = 0;
    let stop = false;
    const mutator = (async () => {
      let next = performance.now();
      while (!stop) {
        value = ((mutations % 200) + 1) / 200;
        if ((await post(server.port, value)) !== 200) failed++;
        mutations++;
        next += MUTATION_MS;
        const wait = next - performance.now();
        if (wait > 0) await sleep(wait);
      }
    })();

    const rss: Array<{ t: number; mib: number }> = [];
    const t0 = Date.now();
    const sampler = setInterval(() => void rssMiB(pid).then((mib) => rss.push({ t: (Date.now() - t0) / 1000, mib })), 1000);
    // GET /status under the soak, once it has settled (a third of the way in), measured while everything runs.
    await sleep((SECONDS * 1000) / 3);
    const withClients = await wrk(`${base}/api/v1/status`, runs.with);
    process.stderr.write(`GET /status with ${CLIENTS} clients: ${withClients} req/s\n`);
    const left = SECONDS * 1000 - (Date.now() - t0);
    if (left > 0) await sleep(left);
    stop = true;
    await mutator;
    clearInterval(sampler);
    const elapsed = (Date.now() - t0) / 1000;

    // Every client must end on the last value: wait (generously) for the last event to reach all of them.
    const deadline = Date.now() + 30000;
    while (Date.now() < deadline && clients.some((c) => c.lastDimmer !== value)) await sleep(100);
    const stats = (await (await fetch(`${base}/api/v1/status`)).json()) as { events?: { resyncs?: number } };
    const missedLast = clients.filter((c) => c.lastDimmer !== value).length;
    const gaps = clients.reduce((a, c) => a + c.gaps, 0);
    const clientsWithGaps = clients.filter((c) => c.gaps > 0).length;
    const closed = clients.filter((c) => c.closed).length;
    const extraHellos = clients.reduce((a, c) => a + c.hellos - 1, 0);
    const events = clients.map((c) => c.events).sort((a, b) => a - b);

    for (const c of clients) c.ws.terminate();
    clients.length = 0;
    await sleep(2000);
    const without2 = await wrk(`${base}/api/v1/status`, runs.after);
    process.stderr.write(`GET /status without clients (after): ${without2} req/s\n`);

    const mibs = rss.map((r) => r.mib);
    const startMib = mibs[0] ?? NaN;
    const endMib = mibs.at(-1) ?? NaN;
    const maxMib = Math.max(...mibs);
    const withoutMean = (without1 + without2) / 2;
    const ratio = withClients / withoutMean;
    const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
    const f = (v: number, d = 1): string => v.toFixed(d);
    const md = [
      `Machine: ${machine}. ${CLIENTS} event clients (default topics) for ${f(elapsed)} s, POST /global/dimmer every ${MUTATION_MS} ms (${mutations} mutations, ${failed} failed); server on CPU ${SERVER_CPU}, clients, mutator and wrk (-t1 -c${WRK_CONNECTIONS} -d${WRK_DURATION}) on CPU ${LOAD_CPU}; each GET /status number is the median of ${WRK_RUNS} wrk runs (before ${runs.before.join(', ')}; with ${runs.with.join(', ')}; after ${runs.after.join(', ')}).`,
      '',
      '| measure | value |',
      '|---|---|',
      `| seq gaps (all clients) | ${gaps} (${clientsWithGaps} clients with any) |`,
      `| clients without the last change | ${missedLast} |`,
      `| clients closed / resyncs (extra hellos) | ${closed} / ${extraHellos} (server counted ${stats.events?.resyncs ?? '?'}) |`,
      `| global events per client (min / median / max) | ${events[0]} / ${events[Math.floor(events.length / 2)]} / ${events.at(-1)} |`,
      `| server RSS MiB: start / end / max | ${f(startMib)} / ${f(endMib)} / ${f(maxMib)} |`,
      `| GET /status req/s without clients (before / after) | ${Math.round(without1)} / ${Math.round(without2)} |`,
      `| GET /status req/s with ${CLIENTS} clients | ${Math.round(withClients)} |`,
      `| with / without (mean of before and after; target ≥ 0.9) | ${f(ratio, 2)} |`,
    ].join('\n');
    await mkdir(join(ROOT, 'bench', 'results'), { recursive: true });
    await writeFile(join(ROOT, 'bench', 'results', 'events-soak.md'), `${md}\n`);
    const json = { machine, date: new Date().toISOString(), clients: CLIENTS, seconds: elapsed, mutationMs: MUTATION_MS, mutations, failed, gaps, clientsWithGaps, missedLast, closed, extraHellos, resyncs: stats.events?.resyncs, events: { min: events[0], median: events[Math.floor(events.length / 2)], max: events.at(-1) }, rss: { startMib, endMib, maxMib, samples: rss }, status: { without: [without1, without2], with: withClients, ratio, runs } };
    await writeFile(join(ROOT, 'bench', 'results', 'events-soak.json'), `${JSON.stringify(json, null, 2)}\n`);
    process.stdout.write(`${md}\n`);
    if (gaps > 0 || missedLast > 0 || closed > 0) process.exitCode = 1;
  } finally {
    for (const c of clients) c.ws.terminate();
    server.proc.kill('SIGTERM');
    await sleep(500);
    await rm(server.dataDir, { recursive: true, force: true });
  }
}

await main();
process.exit(process.exitCode ?? 0);
