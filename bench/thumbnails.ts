// Cold thumbnail throughput/latency against a running vjd (1280×720): current output and a live input, 192/512 px, png/jpg, plus a 64-request burst.
// VJD_BENCH_THUMB_MODE=polls runs the output thumbnail polls with a stream output instead (bench/thumbnail-polls.ts).
import { Agent, request as httpRequest } from 'node:http';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { startServer, req, tempDir, ROOT, type TestServer } from '../test/helpers/server.js';
import { pollBench } from './thumbnail-polls.js';

const ROW_SECONDS = Number(process.env.VJD_BENCH_THUMB_SECONDS ?? 8);
const CONCURRENCY = 4;
const BURST = 64;
const RENDER = { width: 1280, height: 720, fps: 30 };
/** Sizes per row step down from the nominal one, so no two requests near in time share a cache entry or a job. */
const SIZE_SPREAD = 16;

interface Answer {
  status: number;
  code: string | null;
  bytes: number;
  ms: number;
}

interface Row {
  subject: string;
  size: number;
  format: 'png' | 'jpg';
  requests: number;
  rps: number;
  p50ms: number;
  p99ms: number;
  meanBytes: number;
  answers: Record<string, number>;
  cacheHits: number;
  shared: number;
  fpsMin: number;
  fpsMedian: number;
  encodeMsP50: number;
}

interface BurstRow {
  subject: string;
  size: string;
  requests: number;
  ok: number;
  queueFull: number;
  other: Record<string, number>;
  okP50ms: number;
  okMaxMs: number;
  rejectMaxMs: number;
}

function get(agent: Agent | false, url: string): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve) => {
    const r = httpRequest(url, { agent, timeout: 15000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        const status = res.statusCode ?? 0;
        let code: string | null = null;
        if (status >= 400) {
          try {
            code = (JSON.parse(body.toString('utf8')) as { code?: string }).code ?? null;
          } catch {
            code = null;
          }
        }
        resolve({ status, code, bytes: body.length, ms: performance.now() - started });
      });
    });
    r.on('timeout', () => r.destroy(new Error('timeout')));
    r.on('error', (err: NodeJS.ErrnoException) =>
      resolve({ status: 0, code: err.code ?? err.message, bytes: 0, ms: performance.now() - started }),
    );
    r.end();
  });
}

function pct(xs: number[], q: number): number {
  if (xs.length === 0) return NaN;
  const s = Float64Array.from(xs).sort();
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
}

const keyOf = (a: Answer): string =>
  a.status === 0 ? `ERR ${a.code}` : a.status >= 400 ? `${a.status} ${a.code ?? '?'}` : String(a.status);
const r2 = (v: number): number => Math.round(v * 100) / 100;

async function statusOf(s: TestServer): Promise<any> {
  return (await req('GET', `${s.base}/api/v1/status`, { timeoutMs: 15000 })).json();
}

/** Polls render fps once a second until stopped. */
function fpsSampler(s: TestServer): { stop: () => Promise<number[]> } {
  const fps: number[] = [];
  let on = true;
  const loop = (async () => {
    while (on) {
      await new Promise((r) => setTimeout(r, 1000));
      if (!on) break;
      const st = await statusOf(s).catch(() => null);
      if (typeof st?.render?.fps === 'number') fps.push(st.render.fps);
    }
  })();
  return {
    stop: async () => {
      on = false;
      await loop;
      return fps;
    },
  };
}

async function steadyRow(s: TestServer, subject: string, path: string, size: number, format: 'png' | 'jpg'): Promise<Row> {
  const before = (await statusOf(s)).thumbnails;
  const fps = fpsSampler(s);
  const latencies: number[] = [];
  const answers = new Map<string, number>();
  let bytes = 0;
  let n = 0;
  const started = performance.now();
  const deadline = started + ROW_SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      while (performance.now() < deadline) {
        const px = size - (n++ % SIZE_SPREAD);
        const a = await get(agent, `${s.base}${path}?size=${px}&format=${format}`);
        answers.set(keyOf(a), (answers.get(keyOf(a)) ?? 0) + 1);
        if (a.status === 200) {
          latencies.push(a.ms);
          bytes += a.bytes;
        }
      }
      agent.destroy();
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const fpsList = await fps.stop();
  const after = await statusOf(s);
  const th = after.thumbnails;
  const sortedFps = [...fpsList].sort((a, b) => a - b);
  return {
    subject,
    size,
    format,
    requests: n,
    rps: r2(latencies.length / elapsed),
    p50ms: r2(pct(latencies, 0.5)),
    p99ms: r2(pct(latencies, 0.99)),
    meanBytes: Math.round(bytes / Math.max(1, latencies.length)),
    answers: Object.fromEntries(answers),
    cacheHits: th.cacheHits - before.cacheHits,
    shared: th.queue.shared - before.queue.shared,
    fpsMin: sortedFps[0] ?? NaN,
    fpsMedian: sortedFps[Math.floor(sortedFps.length / 2)] ?? NaN,
    encodeMsP50: r2(th.encoder?.encodeMsP50 ?? NaN),
  };
}

async function burstRow(s: TestServer, subject: string, path: string, format: 'png' | 'jpg'): Promise<BurstRow> {
  // Let the queue drain and leave rejecting mode first.
  for (let i = 0; i < 50 && (await statusOf(s)).thumbnails.queue.depth > 0; i++) await new Promise((r) => setTimeout(r, 100));
  const sizes = Array.from({ length: BURST }, (_, i) => 512 - i);
  const res = await Promise.all(sizes.map((px) => get(false, `${s.base}${path}?size=${px}&format=${format}`)));
  const other: Record<string, number> = {};
  for (const a of res) if (a.status !== 200 && keyOf(a) !== '503 THUMBNAIL_QUEUE_FULL') other[keyOf(a)] = (other[keyOf(a)] ?? 0) + 1;
  const ok = res.filter((a) => a.status === 200).map((a) => a.ms);
  const rejected = res.filter((a) => keyOf(a) === '503 THUMBNAIL_QUEUE_FULL').map((a) => a.ms);
  return {
    subject,
    size: `${sizes[sizes.length - 1]}-${sizes[0]}`,
    requests: res.length,
    ok: ok.length,
    queueFull: rejected.length,
    other,
    okP50ms: r2(pct(ok, 0.5)),
    okMaxMs: r2(Math.max(...ok)),
    rejectMaxMs: rejected.length ? r2(Math.max(...rejected)) : NaN,
  };
}

async function main(): Promise<void> {
  const dataDir = await tempDir('vjd-thumb-bench-');
  const s = await startServer({
    dataDir,
    env: { VJD_LOG_LEVEL: 'warn' },
    config: {
      render: RENDER,
      live: {
        test: [{ id: 'bars', name: 'Test Source', pattern: `testsrc2=size=${RENDER.width}x${RENDER.height}:rate=${RENDER.fps}` }],
        streams: [],
        v4l2: { enabled: false },
      },
    },
  });
  try {
    const sel = await req('POST', `${s.base}/api/v1/inputs/live/select`, { body: { id: 'bars' }, timeoutMs: 15000 });
    if (sel.status !== 200) throw new Error(`select bars: ${sel.status} ${sel.text}`);
    // Warm the path once (encode pool start, first readback).
    for (const p of ['/api/v1/thumbnails/current', '/api/v1/thumbnails/live/bars']) await get(false, `${s.base}${p}?size=64`);

    const rows: Row[] = [];
    const subjects: Array<[string, string]> = [
      ['current output', '/api/v1/thumbnails/current'],
      ['live/bars (current input)', '/api/v1/thumbnails/live/bars'],
    ];
    for (const [subject, path] of subjects) {
      for (const size of [192, 512]) {
        for (const format of ['png', 'jpg'] as const) {
          const row = await steadyRow(s, subject, path, size, format);
          process.stderr.write(`${subject} ${size} ${format}: ${row.rps} req/s\n`);
          rows.push(row);
        }
      }
    }
    const bursts: BurstRow[] = [];
    for (const [subject, path] of subjects) bursts.push(await burstRow(s, subject, path, 'png'));
    const final = await statusOf(s);

    const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
    const fmtAnswers = (a: Record<string, number>): string =>
      Object.entries(a)
        .map(([k, v]) => `${k}×${v}`)
        .join(', ');
    const lines = [
      `Machine: ${machine}. vjd renders ${RENDER.width}×${RENDER.height} at ${RENDER.fps} fps, a lavfi testsrc2 input (${RENDER.width}×${RENDER.height}@${RENDER.fps}) is the current source, no effects; encode pool ${final.thumbnails.encoder.threads} thread(s). Each row: ${CONCURRENCY} concurrent keep-alive clients for ${ROW_SECONDS} s, every request a size ${SIZE_SPREAD} px below the nominal one at most, cycling, so no request is answered from the result cache, a shared job or 304 (cache hits / shared jobs columns confirm). Latency is per 200 answer, client side, loopback.`,
      '',
      '| subject | size | format | req/s | p50 ms | p99 ms | mean bytes | answers | cache hits / shared | render fps min / median | encode ms p50 |',
      '|---|---:|---|---:|---:|---:|---:|---|---:|---:|---:|',
      ...rows.map(
        (r) =>
          `| ${r.subject} | ${r.size} | ${r.format} | ${r.rps} | ${r.p50ms} | ${r.p99ms} | ${r.meanBytes} | ${fmtAnswers(r.answers)} | ${r.cacheHits} / ${r.shared} | ${r.fpsMin} / ${r.fpsMedian} | ${r.encodeMsP50} |`,
      ),
      '',
      `Burst: ${BURST} requests sent at once on separate connections, ${BURST} distinct sizes, png (admission: reject above depth 32 until it falls to 16).`,
      '',
      '| subject | sizes | requests | 200 | 503 THUMBNAIL_QUEUE_FULL | other | 200 p50 ms | 200 max ms | 503 max ms |',
      '|---|---|---:|---:|---:|---|---:|---:|---:|',
      ...bursts.map(
        (b) =>
          `| ${b.subject} | ${b.size} | ${b.requests} | ${b.ok} | ${b.queueFull} | ${fmtAnswers(b.other) || '–'} | ${b.okP50ms} | ${b.okMaxMs} | ${b.rejectMaxMs} |`,
      ),
    ];
    const md = lines.join('\n');
    const outDir = join(ROOT, 'bench', 'results');
    await mkdir(outDir, { recursive: true });
    await writeFile(join(outDir, 'thumbnails.md'), `${md}\n`);
    await writeFile(
      join(outDir, 'thumbnails.json'),
      `${JSON.stringify({ machine, date: new Date().toISOString(), render: RENDER, rowSeconds: ROW_SECONDS, concurrency: CONCURRENCY, rows, bursts, finalThumbnails: final.thumbnails }, null, 2)}\n`,
    );
    process.stdout.write(`${md}\n`);
    if (rows.some((r) => Object.keys(r.answers).some((k) => k !== '200'))) {
      process.stderr.write('steady rows got answers other than 200\n');
      process.exitCode = 1;
    }
  } finally {
    await s.cleanup();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (process.env.VJD_BENCH_THUMB_MODE === 'polls') {
  const md = await pollBench();
  await mkdir(join(ROOT, 'bench', 'results'), { recursive: true });
  await writeFile(join(ROOT, 'bench', 'results', 'thumbnail-polls.md'), `${md}\n`);
  process.stdout.write(`${md}\n`);
} else await main();
