// Activation latency over HTTP (select → 200, i.e. until the first frame reached the output) for a media file, a
// live test input and a generator, p50/p99 over 20 runs each; plus the CPU one 720p30 live input costs.
// Writes bench/results/activation.{md,json}.
import { execFile } from 'node:child_process';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { startServer, req, tempDir, sleep } from '../test/helpers/server.js';

const run = promisify(execFile);
const RUNS = Number(process.env.VJD_BENCH_RUNS ?? 20);
const TICK = 100; // clock ticks per second (/proc/<pid>/stat utime+stime)

async function cpuTicks(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

async function childrenOf(pid: number): Promise<number[]> {
  const out: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = await readFile(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid && stat.includes('(ffmpeg)')) out.push(Number(name));
    } catch {
      // gone
    }
  }
  return out;
}

async function cpuPercent(pids: number[], ms: number): Promise<number> {
  const before = await Promise.all(pids.map(cpuTicks));
  await sleep(ms);
  const after = await Promise.all(pids.map(cpuTicks));
  const ticks = after.reduce((a, v, i) => a + v - before[i]!, 0);
  return Math.round(((ticks / TICK) * 1000 * 1000) / ms) / 10;
}

function stats(samples: number[]): { p50: number; p99: number } {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number): number => s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
  return { p50: Math.round(at(0.5)), p99: Math.round(at(0.99)) };
}

export async function activationBench(): Promise<{
  rows: Array<{ kind: string; p50: number; p99: number; runs: number }>;
  cpu: Record<string, number>;
}> {
  const dir = await tempDir('vjd-bench-');
  const media = join(dir, 'media');
  await mkdir(media, { recursive: true });
  const clip = join(media, 'clip720.mp4');
  await run('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=1280x720:rate=30',
    '-t',
    '4',
    '-pix_fmt',
    'yuv420p',
    clip,
  ]);
  const s = await startServer({
    dataDir: dir,
    config: {
      render: { width: 1280, height: 720, fps: 30 },
      media: { roots: [media] },
      live: {
        test: [{ id: 'cam', name: 'Test 720p30', pattern: 'testsrc2=size=1280x720:rate=30' }],
        streams: [],
        v4l2: { enabled: false },
      },
    },
  });
  const api = (p: string): string => `${s.base}/api/v1${p}`;
  try {
    const deadline = Date.now() + 20000;
    let fileId = '';
    while (!fileId && Date.now() < deadline) {
      const list = (await req('GET', api('/sources'))).json();
      fileId = list.items.find((i: { sourceKind: string; id: string }) => i.sourceKind === 'file')?.id ?? '';
      if (!fileId) await sleep(200);
    }
    const targets = [
      { kind: 'media file (720p H.264)', path: '/inputs/file/select', body: { id: fileId } },
      { kind: 'live input (lavfi 720p30)', path: '/inputs/live/select', body: { id: 'cam' } },
      { kind: 'generator (plasma)', path: '/sources/select', body: { id: 'source:plasma' } },
    ];
    const samples = new Map<string, number[]>(targets.map((t) => [t.kind, []]));
    for (let i = 0; i < RUNS; i++) {
      for (const t of targets) {
        const t0 = performance.now();
        const r = await req('POST', api(t.path), { body: t.body, timeoutMs: 15000 });
        const ms = performance.now() - t0;
        if (r.status !== 200) throw new Error(`${t.kind}: ${r.status} ${r.text}`);
        samples.get(t.kind)!.push(ms);
        await sleep(150);
      }
    }
    const rows = targets.map((t) => ({ kind: t.kind, runs: RUNS, ...stats(samples.get(t.kind)!) }));

    // CPU: the vjd process (render + ingest copy) with a generator current, then with the 720p30 live input.
    await req('POST', api('/sources/select'), { body: { id: 'source:solid_color' } });
    await sleep(1500);
    const vjdGenerator = await cpuPercent([s.proc.pid!], 5000);
    await req('POST', api('/inputs/live/select'), { body: { id: 'cam' }, timeoutMs: 15000 });
    await sleep(1500);
    const ffmpeg = await childrenOf(s.proc.pid!);
    const [vjdLive, ffmpegLive] = await Promise.all([cpuPercent([s.proc.pid!], 5000), cpuPercent(ffmpeg, 5000)]);
    return { rows, cpu: { vjdWithGenerator: vjdGenerator, vjdWithLive: vjdLive, ffmpegPerLive720p30: ffmpegLive } };
  } finally {
    await s.cleanup();
  }
}

export function activationTable(r: Awaited<ReturnType<typeof activationBench>>): string {
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}`;
  return [
    `Machine: ${machine}; vjd at 1280×720 @ 30 fps; select → 200 over loopback HTTP (the answer is sent after the first frame reached the output); each run switches away and back, so every file and live activation spawns ffmpeg.`,
    '',
    '| source | runs | p50 ms | p99 ms |',
    '|---|---:|---:|---:|',
    ...r.rows.map((x) => `| ${x.kind} | ${x.runs} | ${x.p50} | ${x.p99} |`),
    '',
    `Ingest CPU, one 720p30 live input: ffmpeg ${r.cpu.ffmpegPerLive720p30} % of a core; the vjd process ${r.cpu.vjdWithLive} % with it current vs ${r.cpu.vjdWithGenerator} % with a flat generator (the difference is frame copy, upload and letterbox). 100 % = one core.`,
  ].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const result = await activationBench();
  const table = activationTable(result);
  const out = fileURLToPath(new URL('../../bench/results/', import.meta.url));
  await mkdir(out, { recursive: true });
  await writeFile(join(out, 'activation.md'), `${table}\n`);
  await writeFile(join(out, 'activation.json'), `${JSON.stringify({ date: new Date().toISOString(), ...result }, null, 2)}\n`);
  process.stdout.write(`${table}\n`);
  process.exit(0);
}
