// Companion-like output thumbnail polls while a stream output runs (1280×720): pollers ask for a 72 px output
// thumbnail with If-None-Match every 100 ms; a tick whose previous poll has not answered is missed. With
// VJD_BENCH_BASELINE=<checkout with dist/> the same run is made against that build first.
import { Agent, request as httpRequest } from 'node:http';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { startServer, req, freePort, waitUntil, ROOT } from '../test/helpers/server.js';

const RENDER = { width: 1280, height: 720, fps: 30 };
const POLLERS = Number(process.env.VJD_BENCH_POLLERS ?? 20);
const SECONDS = Number(process.env.VJD_BENCH_THUMB_SECONDS ?? 20);
const TICK_MS = 100;

interface PollRow {
  build: string;
  polls: number;
  ok: number;
  notModified: number;
  other: number;
  missedTicksPct: number;
  p50ms: number;
  p99ms: number;
  fpsMedian: number;
  from: string;
}

/** One GET with If-None-Match on a keep-alive agent: status, the ETag to send next, and the time it took. */
export function poll(agent: Agent, url: string, etag: string): Promise<{ status: number; etag: string; ms: number }> {
  const t0 = performance.now();
  return new Promise((done) => {
    const r = httpRequest(url, { agent, headers: etag ? { 'If-None-Match': etag } : {}, timeout: 15000 }, (res) => {
      res.resume();
      res.on('end', () => done({ status: res.statusCode ?? 0, etag: String(res.headers.etag ?? etag), ms: performance.now() - t0 }));
    });
    r.on('timeout', () => r.destroy(new Error('timeout')));
    r.on('error', () => done({ status: 0, etag, ms: performance.now() - t0 }));
    r.end();
  });
}

const pct = (xs: number[], q: number): number => {
  const s = Float64Array.from(xs).sort();
  return s.length ? Math.round(s[Math.min(s.length - 1, Math.floor(q * s.length))]! * 10) / 10 : NaN;
};

async function measure(build: string, root: string): Promise<PollRow> {
  const s = await startServer({
    cli: join(root, 'dist', 'src', 'cli.js'),
    env: { VJD_LOG_LEVEL: 'warn' },
    config: {
      render: RENDER,
      sources: { firstRun: null },
      live: {
        test: [{ id: 'bars', name: 'Bars', pattern: `testsrc2=size=${RENDER.width}x${RENDER.height}:rate=${RENDER.fps}` }],
        streams: [],
        v4l2: { enabled: false },
      },
    },
  });
  const api = (p: string): string => `${s.base}/api/v1${p}`;
  try {
    const sel = await req('POST', api('/inputs/live/select'), { body: { id: 'bars' }, timeoutMs: 20000 });
    if (sel.status !== 200) throw new Error(`select: ${sel.status} ${sel.text}`);
    const port = await freePort();
    const add = await req('POST', api('/outputs/add'), { body: { kind: 'stream', name: 'lan', url: `udp://127.0.0.1:${port}` } });
    if (add.status !== 200) throw new Error(`output: ${add.status} ${add.text}`);
    await waitUntil(async () => (await req('GET', api('/outputs'))).json().items[0]?.state === 'running', 30000, 200);
    await new Promise((r) => setTimeout(r, 3000));
    const before = (await req('GET', api('/status'))).json().thumbnails;
    const lat: number[] = [];
    const fps: number[] = [];
    let ok = 0;
    let notModified = 0;
    let other = 0;
    let missed = 0;
    let ticks = 0;
    const end = performance.now() + SECONDS * 1000;
    const sampler = setInterval(() => {
      void req('GET', api('/status')).then(
        (r) => fps.push(r.json().render.fps),
        () => undefined,
      );
    }, 1000);
    await Promise.all(
      Array.from({ length: POLLERS }, async (_, i) => {
        const agent = new Agent({ keepAlive: true, maxSockets: 1 });
        let etag = '';
        let busy = false;
        await new Promise((r) => setTimeout(r, (i * TICK_MS) / POLLERS));
        await new Promise<void>((finish) => {
          const timer = setInterval(() => {
            if (performance.now() >= end) {
              clearInterval(timer);
              const wait = setInterval(() => {
                if (busy) return;
                clearInterval(wait);
                agent.destroy();
                finish();
              }, 20);
              return;
            }
            ticks++;
            if (busy) {
              missed++;
              return;
            }
            busy = true;
            void poll(agent, api('/thumbnails/current?size=72'), etag).then((a) => {
              busy = false;
              lat.push(a.ms);
              if (a.status === 200) ok++;
              else if (a.status === 304) notModified++;
              else other++;
              etag = a.etag;
            });
          }, TICK_MS);
        });
      }),
    );
    clearInterval(sampler);
    const after = (await req('GET', api('/status'))).json().thumbnails;
    const from = after.from
      ? `readback ${after.from.readback - before.from.readback}, render ${after.from.render - before.from.render}`
      : 'render (no counter)';
    fps.sort((a, b) => a - b);
    return {
      build,
      polls: lat.length,
      ok,
      notModified,
      other,
      missedTicksPct: Math.round((1000 * missed) / Math.max(1, ticks)) / 10,
      p50ms: pct(lat, 0.5),
      p99ms: pct(lat, 0.99),
      fpsMedian: fps[fps.length >> 1] ?? NaN,
      from,
    };
  } finally {
    await s.cleanup();
  }
}

export async function pollBench(): Promise<string> {
  const builds: Array<[string, string]> = [];
  if (process.env.VJD_BENCH_BASELINE) builds.push(['baseline', resolve(process.env.VJD_BENCH_BASELINE)]);
  builds.push(['current', ROOT]);
  const rows: PollRow[] = [];
  for (const [build, root] of builds) {
    rows.push(await measure(build, root));
    process.stderr.write(`${build}: p99 ${rows[rows.length - 1]!.p99ms} ms\n`);
  }
  return [
    `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}. ${RENDER.width}×${RENDER.height} at ${RENDER.fps} fps, a testsrc2 input, one UDP stream output at render size; ${POLLERS} pollers, each a 72 px output thumbnail with If-None-Match every ${TICK_MS} ms for ${SECONDS} s (a tick whose poll has not answered is missed).`,
    '',
    '| build | polls | 200 / 304 / other | missed ticks | p50 ms | p99 ms | render fps median | output thumbnails from |',
    '|---|---:|---|---:|---:|---:|---:|---|',
    ...rows.map(
      (r) =>
        `| ${r.build} | ${r.polls} | ${r.ok} / ${r.notModified} / ${r.other} | ${r.missedTicksPct} % | ${r.p50ms} | ${r.p99ms} | ${r.fpsMedian} | ${r.from} |`,
    ),
  ].join('\n');
}
