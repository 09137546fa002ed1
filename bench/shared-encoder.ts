// Shared-encoder benchmark (issue 28): the CPU of vjd's output ffmpeg processes with one 1280×720 UDP stream and
// with two streams of the same settings (one shared encode plus a copy per target), measured in one run; the
// target is at most 1.15× the one-stream figure. Prints a JSON line; VJD_BENCH_CPU_MS sets each window.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { startServer, req, sleep, type TestServer } from '../test/helpers/server.js';
import { processTree, TICK, udpSink } from './outputs-lib.js';

const CPU_MS = Number(process.env.VJD_BENCH_CPU_MS ?? 8000);
const SETTLE_MS = 4000;

/** Output ffmpeg processes of the server: encoders (raw frames in) and remux targets (MPEG-TS in). */
async function outputProcs(root: number): Promise<number[]> {
  const out: number[] = [];
  for (const pid of await processTree(root)) {
    const cmd = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (/-f\0(matroska|mpegts)\0(-analyzeduration\0\d+\0)?-i\0pipe:0/.test(cmd)) out.push(pid);
  }
  return out;
}

async function ticks(pid: number): Promise<number | null> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (!stat) return null;
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(f[11]) + Number(f[12]);
}

/** % of one core used by the output processes over the window (processes present at both ends). */
async function outputsCpu(s: TestServer): Promise<number> {
  const pids = await outputProcs(s.proc.pid!);
  const before = await Promise.all(pids.map(ticks));
  const t0 = performance.now();
  await sleep(CPU_MS);
  const after = await Promise.all(pids.map(ticks));
  const elapsed = performance.now() - t0;
  let used = 0;
  pids.forEach((_p, i) => {
    if (before[i] != null && after[i] != null) used += after[i]! - before[i]!;
  });
  return Math.round(((used / TICK) * 1000 * 1000) / elapsed) / 10;
}

export async function sharedEncoderBench(): Promise<{ one: number; two: number; ratio: number; encoders: number }> {
  const s = await startServer({
    config: {
      render: { width: 1280, height: 720, fps: 30 },
      live: { test: [{ id: 'cam', name: 'testsrc2', pattern: 'testsrc2=size=1280x720:rate=30' }], streams: [], v4l2: { enabled: false } },
    },
  });
  try {
    await req('POST', `${s.base}/api/v1/sources/select`, { body: { id: 'cam' }, timeoutMs: 20000 });
    const [a, b] = [await udpSink(), await udpSink()];
    const add = (port: number) => req('POST', `${s.base}/api/v1/outputs/add`, { body: { kind: 'stream', url: `udp://127.0.0.1:${port}` } });
    await add(a.port);
    await sleep(SETTLE_MS);
    const one = await outputsCpu(s);
    await add(b.port);
    await sleep(SETTLE_MS);
    const two = await outputsCpu(s);
    const encoders = (await req('GET', `${s.base}/api/v1/status`)).json().outputs.encoders.length as number;
    a.socket.close();
    b.socket.close();
    return { one, two, ratio: Math.round((two / one) * 100) / 100, encoders };
  } finally {
    await s.cleanup();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.log(JSON.stringify(await sharedEncoderBench()));
}
