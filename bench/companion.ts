// The vjd Companion module's cost and speed, run through the test host (test/companion/host.ts) as Companion runs it:
// (a) a change over HTTP to the feedback value updated in the host (events-driven), p50/p99 over 100 changes;
// (b) the requests per second the module sends to vjd with 32 buttons (thumbnails and variables) beside what the
// generic HTTP module would send polling the same page (one GET per button per interval).
// Writes bench/results/companion.{md,json}.
import { cpus, loadavg, totalmem } from 'node:os';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, req, sleep, startServer } from '../test/helpers/server.js';
import { existsSync } from 'node:fs';
import { ENTRY, ModuleHost } from '../test/companion/host.js';

const KEY = 'bench-key';
const CHANGES = Number(process.env.VJD_BENCH_SAMPLES ?? 100);
const WINDOW_S = Number(process.env.VJD_BENCH_COMPANION_SECONDS ?? 20);
const POLL_MS = [1000, 100];

/** Nearest-rank percentile (p99 of 100 samples is the 99th, not the largest). */
const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.max(0, Math.ceil((p / 100) * s.length) - 1)]! * 100) / 100;
};

async function main(): Promise<void> {
  if (!existsSync(ENTRY))
    throw new Error(`build the module first: cd integrations/companion && npm ci && npm run build (${ENTRY} is missing)`);
  const s = await startServer({ config: { server: { apiKey: KEY }, render: { width: 320, height: 180, fps: 30 } } });
  const api = (method: string, path: string, body?: unknown) =>
    req(method, `${s.base}/api/v1${path}`, { headers: { 'X-API-Key': KEY }, body, timeoutMs: 30_000 }).then((r) => r.json());
  await api('POST', '/sources/select', { id: 'source:plasma' });
  const results: Record<string, unknown> = {};
  try {
    // (a) latency: one blackout feedback, blackout flipped over HTTP by another client.
    const a = await ModuleHost.start({ host: '127.0.0.1', port: s.port, variableGroups: [] }, { apiKey: KEY });
    await a.until(() => a.lastStatus() === 'ok', 60_000, 'ok');
    await a.setFeedbacks({ b: { feedbackId: 'blackout' } });
    await a.until(() => a.feedbacks.get('b')?.value === false, 60_000, 'first value');
    const lat: number[] = [];
    for (let i = 0; i < CHANGES; i++) {
      const want = i % 2 === 0;
      const t0 = performance.now();
      await api('POST', '/global/blackout', { enabled: want });
      await a.until(() => a.feedbacks.get('b')?.value === want, 30_000, 'feedback');
      lat.push(a.feedbacks.get('b')!.at - t0);
    }
    await a.stop();
    results.latency = { changes: CHANGES, p50: pct(lat, 50), p99: pct(lat, 99), max: pct(lat, 100) };

    // (b) a 32-button page: 24 source thumbnails and 8 variable buttons (every variable group on), then the same
    // with one of the thumbnails swapped for the live program picture.
    const sources = (await api('GET', '/sources')).items.filter((x: any) => x.sourceKind === 'generator' || x.sourceKind === 'preset');
    const page: Record<string, any> = {};
    for (let i = 0; i < 24; i++)
      page[`img${i}`] = {
        feedbackId: 'source_image',
        options: { source: sources[i % sources.length].id },
        image: { width: 72, height: 72 },
      };
    const rows: any[] = [];
    for (const withProgram of [false, true]) {
      const h = await ModuleHost.start(
        {
          host: '127.0.0.1',
          port: s.port,
          variableGroups: ['tempo', 'mix', 'scene', 'transport', 'layers', 'status', 'recording'],
        },
        { apiKey: KEY },
      );
      await h.until(() => h.lastStatus() === 'ok', 60_000, 'ok');
      const buttons = { ...page };
      if (withProgram) buttons.img0 = { feedbackId: 'program_image', image: { width: 72, height: 72 } };
      await h.setFeedbacks(buttons);
      await h.until(() => Object.keys(buttons).every((id) => typeof h.feedbacks.get(id)?.value?.png64 === 'string'), 120_000, 'all images');
      await sleep(2000);
      const r0 = Number(h.variables.get('http_requests'));
      const load = r0;
      const n0 = Number(h.variables.get('http_not_modified'));
      const t0 = performance.now();
      await sleep(WINDOW_S * 1000);
      await sleep(1100); // the counters are published once a second
      const secs = (performance.now() - t0 - 1100) / 1000;
      const reqs = Number(h.variables.get('http_requests')) - r0;
      const n304 = Number(h.variables.get('http_not_modified')) - n0;
      rows.push({
        load,
        page: withProgram ? '23 source thumbnails + program picture + 8 variables' : '24 source thumbnails + 8 variables',
        reqPerS: Math.round((reqs / secs) * 100) / 100,
        notModifiedPerS: Math.round((n304 / secs) * 100) / 100,
        seconds: Math.round(secs),
      });
      await h.stop();
    }
    results.page = rows;
    results.generic = POLL_MS.map((ms) => ({ pollMs: ms, reqPerS: (32 * 1000) / ms }));
  } finally {
    await s.cleanup();
  }
  const cpu = cpus();
  const machine = `${cpu.length} × ${cpu[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, no GPU; load average at the end ${loadavg()[0]!.toFixed(1)} (a shared box)`;
  const l = results.latency as any;
  const md = [
    `Machine: ${machine}.`,
    '',
    '| measure | value |',
    '|---|---|',
    `| HTTP change → feedback value in the host, p50 / p99 / max ms (${l.changes} changes) | ${l.p50} / ${l.p99} / ${l.max} |`,
    ...(results.page as any[]).map(
      (r) =>
        `| requests/s to vjd, this module: ${r.page} (over ${r.seconds} s; ${r.load} requests to connect and draw it) | ${r.reqPerS} (304s: ${r.notModifiedPerS}) |`,
    ),
    ...(results.generic as any[]).map(
      (g) => `| requests/s to vjd, generic HTTP module polling the 32 buttons every ${g.pollMs} ms (computed) | ${g.reqPerS} |`,
    ),
  ].join('\n');
  const dir = join(ROOT, 'bench', 'results');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'companion.md'), `${md}\n`);
  await writeFile(join(dir, 'companion.json'), `${JSON.stringify({ machine, ...results }, null, 2)}\n`);
  console.log(md);
}

await main();
