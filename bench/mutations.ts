// What durable answers cost: POST /global/dimmer latency (p50/p99) and throughput with 1 and 16 clients, and how
// many state.json writes that took (group commit batches them). With VJD_BENCH_BASELINE=<checkout with dist/>
// the same run measures that build first (e.g. the commit before durable answers), for a side-by-side ratio.
// Writes bench/results/mutations.{md,json}.
import { spawn, type ChildProcess } from 'node:child_process';
import { watch } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort, runCli, tempDir, ROOT, sleep } from '../test/helpers/server.js';

const SECONDS = Number(process.env.VJD_BENCH_SECONDS ?? 5);

interface Row {
  build: string;
  clients: number;
  requests: number;
  perSecond: number;
  p50: number;
  p99: number;
  writes: number;
}

function post(agent: Agent, port: number, value: number): Promise<number> {
  const body = JSON.stringify({ value });
  return new Promise((resolveStatus, reject) => {
    const r = request(
      {
        host: '127.0.0.1',
        port,
        path: '/api/v1/global/dimmer',
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': body.length },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolveStatus(res.statusCode ?? 0));
      },
    );
    r.on('error', reject);
    r.end(body);
  });
}

async function start(root: string): Promise<{ proc: ChildProcess; port: number; dataDir: string }> {
  const dataDir = await tempDir('vjd-bench-mut-');
  await mkdir(join(dataDir, 'media'));
  const port = await freePort();
  const cli = join(root, 'dist', 'src', 'cli.js');
  const config = join(dataDir, 'config.json');
  await writeFile(
    config,
    JSON.stringify({
      render: { width: 320, height: 180, fps: 30 },
      server: { port },
      live: { test: [], streams: [], v4l2: { enabled: false } },
      sources: { firstRun: null },
      audio: { input: null },
    }),
  );
  const lic = await runCli(['license', 'activate', '--community', '--data-dir', dataDir]);
  if (lic.code !== 0) throw new Error(lic.stderr);
  const { DISPLAY: _d, ...env } = process.env;
  const proc = spawn(process.execPath, [cli, 'serve', '--config', config, '--data-dir', dataDir], {
    env: { ...env, VJD_LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  for (let i = 0; i < 300; i++) {
    try {
      if ((await post(new Agent(), port, 1)) === 200) return { proc, port, dataDir };
    } catch {
      // not up yet
    }
    await sleep(100);
  }
  proc.kill('SIGKILL');
  throw new Error(`${cli} did not start`);
}

async function measure(build: string, root: string, clients: number): Promise<Row> {
  const s = await start(root);
  let writes = 0;
  // Every atomic write renames a temp file onto state.json: one event per write.
  const watcher = watch(s.dataDir, (_event, name) => {
    if (name === 'state.json') writes++;
  });
  await sleep(500);
  writes = 0;
  const latencies: number[] = [];
  const until = Date.now() + SECONDS * 1000;
  let n = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      while (Date.now() < until) {
        const t0 = process.hrtime.bigint();
        const status = await post(agent, s.port, (++n % 1000) / 1000);
        if (status !== 200) throw new Error(`status ${status}`);
        latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
      }
      agent.destroy();
    }),
  );
  await sleep(300);
  watcher.close();
  s.proc.kill('SIGTERM');
  await new Promise((r) => s.proc.once('exit', r));
  await rm(s.dataDir, { recursive: true, force: true });
  latencies.sort((a, b) => a - b);
  const at = (q: number): number => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]! * 100) / 100;
  return {
    build,
    clients,
    requests: latencies.length,
    perSecond: Math.round(latencies.length / SECONDS),
    p50: at(0.5),
    p99: at(0.99),
    writes,
  };
}

const builds: Array<[string, string]> = [];
if (process.env.VJD_BENCH_BASELINE) builds.push(['baseline', resolve(process.env.VJD_BENCH_BASELINE)]);
builds.push(['current', ROOT]);
const rows: Row[] = [];
for (const clients of [1, 16]) {
  for (const [build, root] of builds) {
    const row = await measure(build, root, clients);
    rows.push(row);
    console.log(JSON.stringify(row));
  }
}
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}`;
const md = [
  `Mutation latency, POST /global/dimmer on loopback, ${SECONDS} s per row (${machine}; ${new Date().toISOString().slice(0, 10)})`,
  '',
  '| build | clients | requests/s | p50 ms | p99 ms | state writes | mutations per write |',
  '|---|---|---|---|---|---|---|',
  ...rows.map(
    (r) =>
      `| ${r.build} | ${r.clients} | ${r.perSecond} | ${r.p50} | ${r.p99} | ${r.writes} | ${r.writes ? (r.requests / r.writes).toFixed(1) : '-'} |`,
  ),
  '',
].join('\n');
const dir = join(ROOT, 'bench', 'results');
await writeFile(join(dir, 'mutations.md'), md);
await writeFile(join(dir, 'mutations.json'), JSON.stringify({ machine, seconds: SECONDS, rows }, null, 2));
console.log(md);
