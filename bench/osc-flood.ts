// OSC flood: GET /status latency while one sender pushes packets whose type tag string is 4080 `[]` pairs (8184
// bytes), the packet that cost a library decode ~16 ms each. With VJD_BENCH_BASELINE=<checkout with dist/> the
// same rounds run against that build too, interleaved, so the table is a side-by-side ratio from one run.
import { createSocket } from 'node:dgram';
import { writeFile, mkdir, rm } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { join, resolve } from 'node:path';
import { cpus } from 'node:os';
import { ROOT, sleep } from '../test/helpers/server.js';
import { start } from './events-lib.js';

const SECONDS = Number(process.env.VJD_BENCH_SECONDS ?? 6);
const RATE = 500;
const ROUNDS = 2;

function hostilePacket(): Buffer {
  const pad = (b: Buffer): Buffer => Buffer.concat([b, Buffer.alloc(4 - (b.length % 4))]);
  const address = pad(Buffer.from('/vjd/global/dimmer'));
  const tags = pad(Buffer.from(`,${'[]'.repeat(4080)}`));
  return Buffer.concat([address, tags]);
}

function getStatus(agent: Agent, port: number): Promise<number> {
  return new Promise((ok, fail) => {
    const t0 = process.hrtime.bigint();
    const r = request({ host: '127.0.0.1', port, path: '/api/v1/status', agent }, (res) => {
      res.resume();
      res.on('end', () => ok(Number(process.hrtime.bigint() - t0) / 1e6));
    });
    r.on('error', fail);
    r.end();
  });
}

/** /status latencies over SECONDS, one request at a time with a 20 ms pause, while `flood` packets/s go out. */
async function phase(port: number, oscPort: number, flood: boolean): Promise<number[]> {
  const sock = createSocket('udp4');
  const pkt = hostilePacket();
  let sent = 0;
  const began = Date.now();
  const timer = flood
    ? setInterval(() => {
        const due = Math.floor(((Date.now() - began) / 1000) * RATE);
        for (; sent < due; sent++) sock.send(pkt, oscPort, '127.0.0.1');
      }, 5)
    : undefined;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const out: number[] = [];
  while (Date.now() - began < SECONDS * 1000) {
    out.push(await getStatus(agent, port));
    await sleep(20);
  }
  clearInterval(timer);
  agent.destroy();
  sock.close();
  return out;
}

const q = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor(p * s.length))]! * 100) / 100;
};

const builds: Array<[string, string]> = [['current', ROOT]];
if (process.env.VJD_BENCH_BASELINE) builds.unshift(['baseline', resolve(process.env.VJD_BENCH_BASELINE)]);
const samples = new Map<string, { quiet: number[]; flood: number[] }>(builds.map(([n]) => [n, { quiet: [], flood: [] }]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, root] of builds) {
    const s = await start(root);
    await sleep(1000);
    const acc = samples.get(name)!;
    acc.quiet.push(...(await phase(s.port, s.oscPort, false)));
    acc.flood.push(...(await phase(s.port, s.oscPort, true)));
    s.proc.kill('SIGTERM');
    await new Promise((r) => s.proc.once('exit', r));
    await rm(s.dataDir, { recursive: true, force: true });
  }
}
const rows = builds.map(([name]) => {
  const a = samples.get(name)!;
  return {
    build: name,
    quietP50: q(a.quiet, 0.5),
    quietP99: q(a.quiet, 0.99),
    floodP50: q(a.flood, 0.5),
    floodP99: q(a.flood, 0.99),
    n: a.flood.length,
  };
});
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}`;
let md = `OSC flood (${RATE} packets/s of 8184 bytes, \`[]\` type tags), GET /status latency in ms, ${ROUNDS} interleaved rounds of ${SECONDS} s per phase; ${machine}\n\n`;
md += '| build | quiet p50 | quiet p99 | flood p50 | flood p99 | requests in flood |\n|---|---|---|---|---|---|\n';
for (const r of rows) md += `| ${r.build} | ${r.quietP50} | ${r.quietP99} | ${r.floodP50} | ${r.floodP99} | ${r.n} |\n`;
process.stdout.write(md);
const dir = join(ROOT, 'bench', 'results');
await mkdir(dir, { recursive: true });
await writeFile(join(dir, 'osc-flood.md'), md);
await writeFile(join(dir, 'osc-flood.json'), JSON.stringify({ machine, rate: RATE, seconds: SECONDS, rows }, null, 2));
