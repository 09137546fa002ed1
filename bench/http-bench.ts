// HTTP benchmark: wrk against vjd and two reference servers in the same run; reports req/s and latency
// percentiles per endpoint and the ratios vjd / bare uWS and vjd / node:http. Writes Markdown and JSON.
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startServer, req, freePort, ROOT, type TestServer } from '../test/helpers/server.js';

const run = promisify(execFile);
const DURATION = process.env.VJD_BENCH_DURATION ?? '8s';
const CONNECTIONS = Number(process.env.VJD_BENCH_CONNECTIONS ?? 64);
const ROUNDS = Number(process.env.VJD_BENCH_ROUNDS ?? 3);
/** Server on core 0, wrk on core 1, so the load generator does not steal the server's CPU. */
const SERVER_CPU = '0';
const LOAD_CPU = '1';

interface WrkResult {
  rps: number;
  p50ms: number;
  p99ms: number;
  non2xx: number;
}

interface Row {
  target: string;
  endpoint: string;
  rps: number;
  p50ms: number;
  p99ms: number;
  non2xx: number;
}

async function wrk(url: string, headers: Record<string, string> = {}): Promise<WrkResult> {
  const args = ['-c', String(LOAD_CPU), 'wrk', '-t1', `-c${CONNECTIONS}`, `-d${DURATION}`, '--latency'];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}: ${v}`);
  args.push(url);
  const { stdout } = await run('taskset', args, { maxBuffer: 1 << 20 });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? NaN);
  const pct = (p: string): number => {
    const m = new RegExp(`^\\s+${p}%\\s+([\\d.]+)(us|ms|s)`, 'm').exec(stdout);
    if (!m) return NaN;
    const v = Number(m[1]);
    return m[2] === 'us' ? v / 1000 : m[2] === 's' ? v * 1000 : v;
  };
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(stdout)?.[1] ?? 0);
  return { rps, p50ms: pct('50'), p99ms: pct('99'), non2xx };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

async function startReference(kind: 'uws' | 'node', body: Buffer): Promise<{ port: number; proc: ChildProcess }> {
  const port = await freePort();
  const script = join(ROOT, 'dist', 'bench', 'reference', 'servers.js');
  const proc = spawn('taskset', ['-c', SERVER_CPU, process.execPath, script, kind, String(port), body.toString('base64')], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    proc.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
    proc.on('exit', (code) => reject(new Error(`${kind} reference exited ${code}`)));
  });
  return { port, proc };
}

async function main(): Promise<void> {
  const vjd: TestServer = await startServer({ env: { VJD_LOG_LEVEL: 'warn' } });
  // Pin the already-running server to the server core.
  await run('taskset', ['-a', '-p', '-c', SERVER_CPU, String(vjd.proc.pid)]);
  const statusBody = (await req('GET', `${vjd.base}/api/v1/status`)).body;
  const globalBody = (await req('GET', `${vjd.base}/api/v1/global`)).body;
  const etag = String((await req('GET', `${vjd.base}/api/v1/openapi.yaml`)).headers['etag']);
  const uws = await startReference('uws', statusBody);
  const node = await startReference('node', statusBody);

  const endpoints: Array<{ name: string; path: string; headers?: Record<string, string> }> = [
    { name: 'GET /status', path: '/api/v1/status' },
    { name: 'GET /global', path: '/api/v1/global' },
    { name: 'GET /openapi.yaml (304)', path: '/api/v1/openapi.yaml', headers: { 'If-None-Match': etag } },
  ];
  const samples = new Map<string, WrkResult[]>();
  const add = (key: string, r: WrkResult): void => void samples.set(key, [...(samples.get(key) ?? []), r]);
  // Interleave targets round by round so drift on a shared machine hits all of them alike.
  for (let round = 0; round < ROUNDS; round++) {
    add('bare uWS|GET /status', await wrk(`http://127.0.0.1:${uws.port}/api/v1/status`));
    add('node:http|GET /status', await wrk(`http://127.0.0.1:${node.port}/api/v1/status`));
    for (const e of endpoints) add(`vjd|${e.name}`, await wrk(`${vjd.base}${e.path}`, e.headers));
    process.stderr.write(`round ${round + 1}/${ROUNDS} done\n`);
  }
  uws.proc.kill();
  node.proc.kill();
  await vjd.cleanup();

  const rows: Row[] = [...samples.entries()].map(([key, rs]) => {
    const [target, endpoint] = key.split('|') as [string, string];
    return {
      target,
      endpoint,
      rps: Math.round(median(rs.map((r) => r.rps))),
      p50ms: median(rs.map((r) => r.p50ms)),
      p99ms: median(rs.map((r) => r.p99ms)),
      non2xx: rs.reduce((a, r) => a + r.non2xx, 0),
    };
  });
  const rpsOf = (t: string, e: string): number => rows.find((r) => r.target === t && r.endpoint === e)?.rps ?? NaN;
  const bareUws = rpsOf('bare uWS', 'GET /status');
  const nodeHttp = rpsOf('node:http', 'GET /status');
  const vjdStatus = rpsOf('vjd', 'GET /status');
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  const lines = [
    `Machine: ${machine}. wrk -t1 -c${CONNECTIONS} -d${DURATION}, median of ${ROUNDS} interleaved rounds; server pinned to CPU ${SERVER_CPU}, wrk to CPU ${LOAD_CPU}.`,
    '',
    '| target | endpoint | req/s | p50 ms | p99 ms | vs bare uWS | vs node:http |',
    '|---|---|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.target} | ${r.endpoint} | ${r.rps} | ${r.p50ms.toFixed(2)} | ${r.p99ms.toFixed(2)} | ${(r.rps / bareUws).toFixed(2)} | ${(r.rps / nodeHttp).toFixed(2)} |`,
    ),
    '',
    `304 path vs GET /status on vjd: ${(rpsOf('vjd', 'GET /openapi.yaml (304)') / vjdStatus).toFixed(2)}`,
  ];
  const md = lines.join('\n');
  const outDir = join(ROOT, 'bench', 'results');
  await mkdir(outDir, { recursive: true });
  await writeFile(join(outDir, 'http.md'), `${md}\n`);
  await writeFile(join(outDir, 'http.json'), `${JSON.stringify({ machine, date: new Date().toISOString(), duration: DURATION, connections: CONNECTIONS, rounds: ROUNDS, rows }, null, 2)}\n`);
  process.stdout.write(`${md}\n`);
  if (rows.some((r) => r.non2xx > 0 && !r.endpoint.includes('304'))) {
    process.stderr.write('unexpected non-2xx responses during the benchmark\n');
    process.exitCode = 1;
  }
}

await main();
