// Scenes benchmark over HTTP on a real server: the answer time of POST /scenes/recall (cut) alternating between two
// scenes (A: clip 1 on layer 1; B: clip 2 on layer 1 and a generator on layer 2) against a cold
// POST /inputs/file/select of a third clip whose reader is closed. Both answers are sent once the first frame of the
// new picture is on the output. Writes bench/results/scenes.{md,json}.
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { req, sleep, startServer, tempDir, waitUntil } from '../test/helpers/server.js';

const exec = promisify(execFile);
const RUNS = Number(process.env.VJD_BENCH_RUNS ?? 15);
const CLIPS = ['scene-one', 'scene-two', 'cold-three'];
const PATTERNS = ['testsrc2', 'smptebars', 'rgbtestsrc'];
const GENERATOR = 'source:gradient';

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
};
const round = (v: number): number => Math.round(v * 10) / 10;

interface Stat {
  p50: number;
  p99: number;
  n: number;
}
const stat = (xs: number[]): Stat => ({ p50: round(pct(xs, 50)), p99: round(pct(xs, 99)), n: xs.length });

async function makeClip(file: string, pattern: string): Promise<void> {
  await exec('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `${pattern}=size=1280x720:rate=30`,
    '-t',
    '10',
    '-pix_fmt',
    'yuv420p',
    file,
  ]);
}

export async function scenesBench(): Promise<{ recall: Stat; toA: Stat; toB: Stat; cold: Stat; ratio: number }> {
  const dataDir = await tempDir('vjd-bench-scenes-');
  const media = join(dataDir, 'media');
  await mkdir(media, { recursive: true });
  await Promise.all(CLIPS.map((c, i) => makeClip(join(media, `${c}.mp4`), PATTERNS[i]!)));
  const s = await startServer({
    dataDir,
    config: { render: { width: 1280, height: 720, fps: 30 }, live: { test: [], v4l2: { enabled: false } } },
  });
  const api = (p: string): string => `${s.base}/api/v1${p}`;
  const post = async (p: string, body: unknown): Promise<number> => {
    const t0 = performance.now();
    const r = await req('POST', api(p), { body, timeoutMs: 20000 });
    if (r.status !== 200) throw new Error(`${p} answered ${r.status}: ${r.text}`);
    return performance.now() - t0;
  };
  try {
    const files = async (): Promise<Map<string, string>> => {
      const items = (await req('GET', api('/sources'))).json().items as Array<{ id: string; sourceKind: string }>;
      const out = new Map<string, string>();
      for (const c of CLIPS) {
        const item = items.find((i) => i.sourceKind === 'file' && JSON.stringify(i).includes(c));
        if (item) out.set(c, item.id);
      }
      return out;
    };
    await waitUntil(async () => (await files()).size === CLIPS.length, 60000, 200);
    const ids = await files();
    const [one, two, three] = CLIPS.map((c) => ids.get(c)!);

    // Cold: a generator shows in between (its answer comes after its first frame, by then the clip's reader is
    // released), so each select of the third clip starts a reader (ffmpeg) before its first frame shows.
    const cold: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      await post('/sources/select', { id: 'source:solid_color' });
      await sleep(300);
      // Nothing cued either: a cued clip keeps its reader open.
      const idle = (await req('GET', api('/mix'))).json().preview;
      if (idle !== null) throw new Error(`something is cued before a cold select: ${JSON.stringify(idle)}`);
      cold.push(await post('/inputs/file/select', { id: three }));
    }
    await post('/sources/select', { id: 'source:solid_color' });

    // Scene A: clip 1 on the only layer. Scene B: clip 2 on layer 1 and a generator on layer 2.
    await post('/inputs/file/select', { id: one });
    await post('/scenes/save', { name: 'bench A' });
    await post('/inputs/file/select', { id: two });
    await post('/layers/add', { source: GENERATOR, blend: 'screen', opacity: 0.5 });
    await post('/scenes/save', { name: 'bench B' });
    const layers = (await req('GET', api('/layers'))).json().layers as unknown[];
    if (layers.length !== 2) throw new Error(`scene B has ${layers.length} layers`);

    // One round unmeasured: after it each recall finds the other scene's clip on layer 1's preview.
    await post('/scenes/recall', { name: 'bench A' });
    await post('/scenes/recall', { name: 'bench B' });
    const preview = (await req('GET', api('/mix'))).json().preview as { id?: string } | null;
    if (preview?.id !== one) throw new Error(`clip 1 is not on layer 1's preview after recalling B: ${JSON.stringify(preview)}`);
    const toA: number[] = [];
    const toB: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      toA.push(await post('/scenes/recall', { name: 'bench A' }));
      toB.push(await post('/scenes/recall', { name: 'bench B' }));
    }
    const recall = stat([...toA, ...toB]);
    const coldStat = stat(cold);
    return { recall, toA: stat(toA), toB: stat(toB), cold: coldStat, ratio: Math.round((coldStat.p50 / recall.p50) * 100) / 100 };
  } finally {
    await s.cleanup();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const r = await scenesBench();
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, load average ${loadavg()[0]!.toFixed(1)} at the end`;
  const row = (name: string, x: Stat): string => `| ${name} | ${x.p50} | ${x.p99} | ${x.n} |`;
  const table = [
    `Scene recall against a cold select (machine: ${machine}; render 1280×720 at 30 fps, 720p H.264 clips of 10 s; answer times of the HTTP request, each answered once the first frame of the new picture is on the output; one run).`,
    '',
    '| measure | p50 (ms) | p99 (ms) | runs |',
    '|---|---:|---:|---:|',
    row("`POST /scenes/recall` (cut), A ↔ B alternating, both directions (the other clip waits on layer 1's preview)", r.recall),
    row('… to A (clip 1 on layer 1, layer 2 removed)', r.toA),
    row('… to B (clip 2 on layer 1, a generator added on layer 2)', r.toB),
    row('cold `POST /inputs/file/select` of a third clip (its reader closed: ffmpeg starts)', r.cold),
    `| cold select ÷ recall (p50) | ${r.ratio}× |  |  |`,
  ].join('\n');
  const dir = fileURLToPath(new URL('../../bench/results/', import.meta.url));
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'scenes.md'), `${table}\n`);
  await writeFile(join(dir, 'scenes.json'), `${JSON.stringify({ date: new Date().toISOString(), machine, ...r }, null, 2)}\n`);
  process.stdout.write(`${table}\n`);
  process.exit(0);
}
