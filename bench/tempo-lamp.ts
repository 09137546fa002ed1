// The control page's beat lamp against the tempo clock, in Chromium on one server at a manual 120 BPM: when the lamp
// lights (the page extrapolating the clock's phase) and when each `tempo` beat event reaches the page (what the lamp
// used to light on), each minus the instant of its beat as GET /tempo's line gives it.
// Writes bench/results/tempo-lamp.{md,json}.
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { launch, loaded, open } from '../test/ui/browser.js';
import { req, ROOT, startServer, waitUntil } from '../test/helpers/server.js';

const BEATS = Number(process.env.VJD_BENCH_RUNS ?? 60);
const BPM = 120;

const s = await startServer({ config: { audio: { input: null } } });
const browser = await launch();
try {
  const api = async (method: string, path: string, body?: unknown): Promise<any> =>
    (await req(method, `${s.base}/api/v1${path}`, { body, timeoutMs: 15000 })).json();
  await api('POST', '/tempo/bpm', { bpm: BPM });
  const { page } = await open(browser, `${s.base}/ui/`);
  await loaded(page);
  await page.evaluate(() => {
    const g = globalThis as any;
    const now = (): number => g.performance.timeOrigin + g.performance.now();
    const lamp = g.document.querySelector('[data-testid="beat-lamp"]');
    g.benchLit = [];
    g.benchArrived = [];
    new g.MutationObserver(() => g.benchLit.push({ beat: Number(lamp.dataset.beat), at: Number(lamp.dataset.litAt) })).observe(lamp, {
      attributes: true,
      attributeFilter: ['data-lit-at'],
    });
    // A socket of its own, as the page's was used: the arrival instant of each beat event.
    const ws = new g.WebSocket(`ws://${g.location.host}/api/v1/events`);
    ws.onopen = () => ws.send(JSON.stringify({ type: 'subscribe', topics: ['tempo'] }));
    ws.onmessage = (ev: { data: string }) => {
      const at = now();
      const m = JSON.parse(ev.data);
      if (m.type === 'event' && m.topic === 'tempo') g.benchArrived.push({ beat: m.data.beat, at });
    };
  });
  await waitUntil(async () => (await page.evaluate(() => (globalThis as any).benchLit.length)) >= BEATS, BEATS * 2000, 500);
  const lit: Array<{ beat: number; at: number }> = await page.evaluate(() => (globalThis as any).benchLit);
  const arrived: Array<{ beat: number; at: number }> = await page.evaluate(() => (globalThis as any).benchArrived);
  const v = await api('GET', '/tempo');
  const instant = (beat: number): number => v.at + ((beat - v.position) * 60_000) / v.bpm;
  const pct = (xs: number[], q: number): number => {
    const s2 = [...xs].sort((a, b) => a - b);
    return s2[Math.min(s2.length - 1, Math.floor(q * s2.length))]!;
  };
  const row = (name: string, xs: Array<{ beat: number; at: number }>) => {
    const e = xs.map((x) => x.at - instant(x.beat));
    const dev = e.map((x) => Math.abs(x - pct(e, 0.5)));
    return { name, beats: e.length, p50: pct(e, 0.5), p99: pct(e, 0.99), min: Math.min(...e), jitterP99: pct(dev, 0.99) };
  };
  const rows = [row('lamp lit from the clock (this build)', lit), row('beat event arrival (the lamp before)', arrived)];
  const f = (x: number): string => x.toFixed(1);
  const md = [
    '| lamp | beats | p50 (ms) | p99 (ms) | earliest (ms) | p99 distance from p50 (ms) |',
    '|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.name} | ${r.beats} | ${f(r.p50)} | ${f(r.p99)} | ${f(r.min)} | ${f(r.jitterP99)} |`),
    '',
    `Offsets from each beat's instant on the clock (GET /tempo's line at a manual ${BPM} BPM; positive: late). Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, no GPU, Debian Chromium headless (software rendering), server and browser on the same box, Node ${process.version}.`,
  ].join('\n');
  await mkdir(join(ROOT, 'bench', 'results'), { recursive: true });
  await writeFile(join(ROOT, 'bench', 'results', 'tempo-lamp.md'), `${md}\n`);
  await writeFile(
    join(ROOT, 'bench', 'results', 'tempo-lamp.json'),
    `${JSON.stringify({ date: new Date().toISOString(), rows }, null, 2)}\n`,
  );
  process.stdout.write(`${md}\n`);
} finally {
  await browser.close();
  await s.cleanup();
}
