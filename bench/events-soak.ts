// Events soak: 500 event clients connected for 60 s while POST /global/dimmer changes state every 50 ms. Checks every
// client's seq for gaps and that each saw the last change, samples the server's RSS each second, and measures
// GET /status throughput (wrk) without the clients (before and after) and with them (mid-soak), in one run.
// Writes bench/results/events-soak.{md,json}.
import { execFile, fork, type ChildProcess } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, setPriority, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
  const { stdout } = await run('taskset', ['-c', LOAD_CPU, 'wrk', '-t1', `-c${WRK_CONNECTIONS}`, `-d${WRK_DURATION}`, url], {
    maxBuffer: 1 << 20,
  });
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

/** The clients' side, in a child process (niced, so wrk on the same core keeps its share): connect, count, report. */
async function clientsMain(port: number, n: number): Promise<void> {
  const clients: Counter[] = [];
  while (clients.length < n) clients.push(await connect(`ws://127.0.0.1:${port}/api/v1/events`));
  process.send!({ ready: clients.length });
  process.on('message', async (m: { last: number }) => {
    // Every client must end on the last value: wait (generously) for the last event to reach all of them.
    const deadline = Date.now() + 30000;
    while (Date.now() < deadline && clients.some((c) => c.lastDimmer !== m.last)) await sleep(100);
    const events = clients.map((c) => c.events).sort((a, b) => a - b);
    process.send!({
      missedLast: clients.filter((c) => c.lastDimmer !== m.last).length,
      gaps: clients.reduce((a, c) => a + c.gaps, 0),
      clientsWithGaps: clients.filter((c) => c.gaps > 0).length,
      closed: clients.filter((c) => c.closed).length,
      extraHellos: clients.reduce((a, c) => a + c.hellos - 1, 0),
      events: { min: events[0], median: events[Math.floor(events.length / 2)], max: events.at(-1) },
    });
    for (const c of clients) c.ws.terminate();
    setTimeout(() => process.exit(0), 200);
  });
}

interface ClientReport {
  missedLast: number;
  gaps: number;
  clientsWithGaps: number;
  closed: number;
  extraHellos: number;
  events: { min: number; median: number; max: number };
}

/** A new dimmer value every 50 ms (never the same twice in a row, so each one is a change), until stopped. */
function mutator(port: number, counts: { mutations: number; failed: number; value: number }): () => Promise<void> {
  let stop = false;
  const done = (async () => {
    let next = performance.now();
    while (!stop) {
      counts.value = ((counts.mutations % 200) + 1) / 200;
      if ((await post(port, counts.value)) !== 200) counts.failed++;
      counts.mutations++;
      next += MUTATION_MS;
      const wait = next - performance.now();
      if (wait > 0) await sleep(wait);
    }
  })();
  return () => {
    stop = true;
    return done;
  };
}

async function main(): Promise<void> {
  await run('taskset', ['-a', '-p', '-c', LOAD_CPU, String(process.pid)]);
  const server = await start();
  const pid = server.proc.pid!;
  const base = `http://127.0.0.1:${server.port}`;
  let child: ChildProcess | null = null;
  try {
    await run('taskset', ['-a', '-p', '-c', SERVER_CPU, String(pid)]);
    const runs = { before: [] as number[], with: [] as number[], after: [] as number[] };
    // The mutations run in every phase: the ratio isolates what the connected clients cost, not what a change costs.
    const counts = { mutations: 0, failed: 0, value: 0 };
    const soakCounts = { mutations: 0, failed: 0 };
    let stopMutator = mutator(server.port, counts);
    const without1 = await wrk(`${base}/api/v1/status`, runs.before);
    process.stderr.write(`GET /status without clients: ${without1} req/s\n`);
    await stopMutator();

    child = fork(fileURLToPath(import.meta.url), ['--clients', String(server.port), String(CLIENTS)], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const messages: unknown[] = [];
    const waiters: Array<() => void> = [];
    child.on('message', (m) => {
      messages.push(m);
      for (const w of waiters.splice(0)) w();
    });
    const nextMessage = async <T>(): Promise<T> => {
      while (messages.length === 0) await new Promise<void>((r) => waiters.push(r));
      return messages.shift() as T;
    };
    setPriority(child.pid!, 10);
    await nextMessage<{ ready: number }>();
    process.stderr.write(`${CLIENTS} clients connected\n`);

    const before = { ...counts };
    stopMutator = mutator(server.port, counts);
    const rss: Array<{ t: number; mib: number }> = [];
    const t0 = Date.now();
    const sampler = setInterval(() => void rssMiB(pid).then((mib) => rss.push({ t: (Date.now() - t0) / 1000, mib })), 1000);
    // GET /status under the soak, once it has settled (a third of the way in), measured while everything runs.
    await sleep((SECONDS * 1000) / 3);
    const withClients = await wrk(`${base}/api/v1/status`, runs.with);
    process.stderr.write(`GET /status with ${CLIENTS} clients: ${withClients} req/s\n`);
    const left = SECONDS * 1000 - (Date.now() - t0);
    if (left > 0) await sleep(left);
    await stopMutator();
    clearInterval(sampler);
    const elapsed = (Date.now() - t0) / 1000;
    soakCounts.mutations = counts.mutations - before.mutations;
    soakCounts.failed = counts.failed - before.failed;

    child.send({ last: counts.value });
    const report = await nextMessage<ClientReport>();
    await new Promise<void>((r) => (child!.exitCode !== null ? r() : child!.once('exit', () => r())));
    child = null;
    const stats = (await (await fetch(`${base}/api/v1/status`)).json()) as { events?: { resyncs?: number } };
    const { missedLast, gaps, clientsWithGaps, closed, extraHellos, events } = report;
    const mutations = soakCounts.mutations;
    const failed = soakCounts.failed;

    await sleep(2000);
    stopMutator = mutator(server.port, counts);
    const without2 = await wrk(`${base}/api/v1/status`, runs.after);
    await stopMutator();
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
      `Machine: ${machine}. ${CLIENTS} event clients (default topics) for ${f(elapsed)} s, POST /global/dimmer every ${MUTATION_MS} ms in every phase (${mutations} mutations during the soak, ${failed} failed); server on CPU ${SERVER_CPU}; the clients (a child process at nice 10), the mutator and wrk (-t1 -c${WRK_CONNECTIONS} -d${WRK_DURATION}) on CPU ${LOAD_CPU}; each GET /status number is the median of ${WRK_RUNS} wrk runs (before ${runs.before.join(', ')}; with ${runs.with.join(', ')}; after ${runs.after.join(', ')}).`,
      '',
      '| measure | value |',
      '|---|---|',
      `| seq gaps (all clients) | ${gaps} (${clientsWithGaps} clients with any) |`,
      `| clients without the last change | ${missedLast} |`,
      `| clients closed / resyncs (extra hellos) | ${closed} / ${extraHellos} (server counted ${stats.events?.resyncs ?? '?'}) |`,
      `| global events per client (min / median / max) | ${events.min} / ${events.median} / ${events.max} |`,
      `| server RSS MiB: start / end / max | ${f(startMib)} / ${f(endMib)} / ${f(maxMib)} |`,
      `| GET /status req/s without clients (before / after) | ${Math.round(without1)} / ${Math.round(without2)} |`,
      `| GET /status req/s with ${CLIENTS} clients | ${Math.round(withClients)} |`,
      `| with / without (mean of before and after; target ≥ 0.9) | ${f(ratio, 2)} |`,
    ].join('\n');
    await mkdir(join(ROOT, 'bench', 'results'), { recursive: true });
    await writeFile(join(ROOT, 'bench', 'results', 'events-soak.md'), `${md}\n`);
    const json = {
      machine,
      date: new Date().toISOString(),
      clients: CLIENTS,
      seconds: elapsed,
      mutationMs: MUTATION_MS,
      mutations,
      failed,
      gaps,
      clientsWithGaps,
      missedLast,
      closed,
      extraHellos,
      resyncs: stats.events?.resyncs,
      events,
      rss: { startMib, endMib, maxMib, samples: rss },
      status: { without: [without1, without2], with: withClients, ratio, runs },
    };
    await writeFile(join(ROOT, 'bench', 'results', 'events-soak.json'), `${JSON.stringify(json, null, 2)}\n`);
    process.stdout.write(`${md}\n`);
    if (gaps > 0 || missedLast > 0 || closed > 0) process.exitCode = 1;
  } finally {
    child?.kill();
    server.proc.kill('SIGTERM');
    await sleep(500);
    await rm(server.dataDir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--clients') {
  await clientsMain(Number(process.argv[3]), Number(process.argv[4]));
} else {
  await main();
  process.exit(process.exitCode ?? 0);
}
