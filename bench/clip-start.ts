// Double-click → clip on its layer, in Chromium against a running server: the page's Browse list of media files,
// a double-click on a clip, and the time until the layer strip names it (the page) and GET /layers does (HTTP).
// Two ways in: a double-click straight onto a row (cold) and a pause on the row first (the pointer resting on it,
// as an operator's does before the double-click). Each run takes another clip, so no run finds the last one's reader.
// VJD_BENCH_CLI points at another build's dist/src/cli.js (the "before" of docs/performance.md).
// Writes bench/results/clip-start.{md,json}.
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { req, sleep, startServer, tempDir, waitUntil } from '../test/helpers/server.js';
import { launch, loaded, open } from '../test/ui/browser.js';

const run = promisify(execFile);
const RUNS = Number(process.env.VJD_BENCH_RUNS ?? 8);
const CLIPS = 6;
/** The operator's pause on a row before the double-click (the warm path). */
const REST_MS = Number(process.env.VJD_BENCH_REST_MS ?? 4000);

interface Sample {
  /** Double-click → the strip names the clip (in the page's clock). */
  strip: number;
  /** Double-click → GET /layers names it (polled). */
  http: number;
}

function p50(xs: number[]): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.floor((s.length - 1) / 2)]!);
}

async function makeClips(dir: string): Promise<void> {
  for (let i = 0; i < CLIPS; i++) {
    await run('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `testsrc2=size=1280x720:rate=30,hue=h=${i * 60}`,
      '-t',
      '6',
      '-pix_fmt',
      'yuv420p',
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      join(dir, `clip-${i + 1}.mp4`),
    ]);
  }
}

/** Time from a double-click on `name`'s row to the strip naming it, measured inside the page; `clicked` gets Node's clock then. */
async function dblclickToStrip(page: Page, name: string, rest: boolean, clicked: (at: number) => void): Promise<number> {
  const row = page.getByTestId('browse-list').locator(`.item[data-name="${name}"]`);
  await row.scrollIntoViewIfNeeded();
  if (rest) {
    await row.hover();
    await sleep(REST_MS);
  }
  await page.evaluate((clip) => {
    const w = globalThis as any;
    const document = w.document;
    w.__clipStart = { t0: 0, strip: 0 };
    const list = document.querySelector('[data-testid="browse-list"]')!;
    list.addEventListener('dblclick', () => (w.__clipStart.t0 = performance.now()), { once: true, capture: true });
    const seen = (): boolean =>
      [...document.querySelectorAll('[data-testid="layer-source"]')].some((e: any) => (e.textContent ?? '').trim() === clip);
    const watch = new w.MutationObserver(() => {
      if (w.__clipStart.t0 > 0 && seen()) {
        w.__clipStart.strip = performance.now();
        watch.disconnect();
      }
    });
    watch.observe(document.body, { subtree: true, childList: true, characterData: true });
  }, name);
  clicked(Date.now());
  await row.dblclick();
  // A double-click whose cue timed out (504) never reaches the strip: counted as a miss, not timed.
  const shown = await page
    .waitForFunction(() => (globalThis as any).__clipStart.strip > 0, null, { timeout: 15000, polling: 20 })
    .then(() => true)
    .catch(() => false);
  if (!shown) return Number.NaN;
  return page.evaluate(() => (globalThis as any).__clipStart.strip - (globalThis as any).__clipStart.t0);
}

export async function clipStartBench(
  cli?: string,
): Promise<{ machine: string; rows: Array<{ way: string; runs: number; misses: number; strip: number; http: number }> }> {
  const dir = await tempDir('vjd-bench-clip-');
  const media = join(dir, 'media');
  await mkdir(media, { recursive: true });
  await makeClips(media);
  const s = await startServer({
    dataDir: dir,
    ...(cli ? { cli } : {}),
    config: {
      render: { width: 1280, height: 720, fps: 30 },
      media: { roots: [media] },
      live: { test: [], streams: [], v4l2: { enabled: false } },
    },
  });
  const browser = await launch();
  const api = (p: string): string => `${s.base}/api/v1${p}`;
  try {
    await waitUntil(
      async () => (await req('GET', api('/sources'))).json().items.filter((i: any) => i.sourceKind === 'file').length === CLIPS,
      30000,
      200,
    );
    const files = (await req('GET', api('/sources'))).json().items.filter((i: any) => i.sourceKind === 'file');
    const o = await open(browser, `${s.base}/ui/`);
    const page = o.page;
    await loaded(page);
    const folder = page.getByTestId('browse-list').locator('.item[data-name="Media Files"]');
    await folder.click();
    await page.getByTestId('browse-list').locator(`.item[data-name="${files[0].name}"]`).waitFor({ timeout: 20000 });
    const rows: Array<{ way: string; runs: number; misses: number; strip: number; http: number }> = [];
    let k = 0;
    for (const [way, rest] of [
      ['double-click straight onto the row', false],
      [`pointer rests on the row ${REST_MS} ms, then double-click`, true],
    ] as const) {
      const samples: Sample[] = [];
      let misses = 0;
      for (let i = 0; i < RUNS; i++) {
        const f = files[k++ % files.length];
        // A refused or reset poll (a loaded box) is asked again.
        const layerShows = async (): Promise<boolean> =>
          req('GET', api('/layers')).then(
            (r) => r.json().layers[0].source.id === f.id,
            () => false,
          );
        let t0 = Date.now();
        let stop = false;
        const pollHttp = (async () => {
          while (!stop && !(await layerShows())) await sleep(20);
          return Date.now();
        })();
        const strip = await dblclickToStrip(page, f.name, rest, (at) => {
          t0 = at;
        });
        stop = Number.isNaN(strip);
        const httpAt = await pollHttp;
        if (stop) {
          misses++;
          continue;
        }
        samples.push({ strip, http: httpAt - t0 });
        await sleep(500);
      }
      rows.push({ way, runs: RUNS, misses, strip: p50(samples.map((x) => x.strip)), http: p50(samples.map((x) => x.http)) });
      process.stdout.write(`${way}: ${JSON.stringify(samples.map((x) => Math.round(x.strip)))}\n`);
    }
    const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, Chromium headless, no GPU`;
    return { machine, rows };
  } finally {
    await browser.close();
    await s.cleanup();
  }
}

export function clipStartTable(r: Awaited<ReturnType<typeof clipStartBench>>): string {
  return [
    `Machine: ${r.machine}; vjd at 1280×720 @ 30 fps; six 720p H.264 clips, each run double-clicks another.`,
    '',
    '| way in | runs | not on the layer within 15 s | p50 ms to the strip | p50 ms to GET /layers |',
    '|---|---:|---:|---:|---:|',
    ...r.rows.map((x) => `| ${x.way} | ${x.runs} | ${x.misses} | ${x.strip} | ${x.http} |`),
  ].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const result = await clipStartBench(process.env.VJD_BENCH_CLI);
  const table = clipStartTable(result);
  const out = fileURLToPath(new URL('../../bench/results/', import.meta.url));
  await mkdir(out, { recursive: true });
  const name = process.env.VJD_BENCH_CLI ? 'clip-start-baseline' : 'clip-start';
  await writeFile(join(out, `${name}.md`), `${table}\n`);
  await writeFile(join(out, `${name}.json`), `${JSON.stringify({ date: new Date().toISOString(), ...result }, null, 2)}\n`);
  process.stdout.write(`${table}\n`);
  process.exit(0);
}
