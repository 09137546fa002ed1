// Encoder micro-benchmark (tinybench): thumbnail-sized RGBA to JPEG/PNG with jpeg-js, pngjs, sharp and vjd's encode task,
// in-process and through EncodePool. Writes bench/results/encode.{md,json}.
import { Bench } from 'tinybench';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { valueSymbol } from 'piscina';
import sharp from 'sharp';
import encodeTask, { writePng } from '../workers/encode/main.js';
import { EncodePool } from '../src/workers/encode-pool.js';
import type { EncodeResult, EncodeTask, ImageFormat } from '../src/shared/protocol/encode.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SIZES: Array<[number, number]> = [
  [192, 108],
  [512, 288],
];
const TIME_MS = Number(process.env.VJD_BENCH_TIME_MS ?? 1500);
const ROUNDS = 5;

/** What a downscaled show frame looks like to an encoder: smooth colour fields plus a little sensor-like noise. */
function frame(width: number, height: number): SharedArrayBuffer {
  const sab = new SharedArrayBuffer(width * height * 4);
  const px = new Uint8Array(sab);
  let seed = 0x9e3779b9;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      const noise = ((seed >>> 24) & 15) - 8;
      const u = x / width;
      const v = y / height;
      const i = (y * width + x) * 4;
      px[i] = 255 * u + noise;
      px[i + 1] = 128 + 100 * Math.sin(6 * v + 3 * u) + noise;
      px[i + 2] = 255 * (1 - v) * (0.5 + 0.5 * Math.cos(9 * u)) + noise;
      px[i + 3] = 255;
    }
  }
  return sab;
}

/** A placeholder-like card: one flat colour with a block of light text-like strokes, which PNG encodes run-length. */
function card(width: number, height: number): SharedArrayBuffer {
  const sab = new SharedArrayBuffer(width * height * 4);
  const px = new Uint32Array(sab);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const text = y > height * 0.42 && y < height * 0.56 && x > width * 0.2 && x < width * 0.8 && ((x ^ y) & 4) !== 0;
      px[y * width + x] = text ? 0xfff0eae8 : 0xff1c1614; // little-endian RGBA words
    }
  }
  return sab;
}

/** The worker task returns a piscina transfer wrapper; in-process the result sits behind its value symbol. */
async function inProcess(task: EncodeTask): Promise<EncodeResult> {
  const r = (await encodeTask(task)) as unknown as Record<symbol, EncodeResult>;
  return r[valueSymbol] ?? (r as unknown as EncodeResult);
}

interface Row {
  size: string;
  format: ImageFormat;
  name: string;
  p50Ms: number;
  p99Ms: number;
  bytes: number;
  samples: number;
  /** Baseline p50 divided by this row's p50: above 1 is faster than the pure-JS baseline. */
  speedup: number;
}

sharp.concurrency(1); // the pool's setting: one libvips thread per encode
sharp.cache(false);
const loadBefore = loadavg()[0]!;
const pool = new EncodePool({ threads: 1 });
const rows: Row[] = [];
for (const [w, h] of SIZES) {
  const sab = frame(w, h);
  const flat = card(w, h);
  const rgba = Buffer.from(sab);
  const raw = { raw: { width: w, height: h, channels: 4 as const } };
  const sizes = new Map<string, number>();
  const entries: Array<[string, ImageFormat, () => Promise<Uint8Array> | Uint8Array]> = [
    ['jpeg-js q80 (baseline)', 'jpg', () => jpeg.encode({ data: rgba, width: w, height: h }, 80).data],
    [
      'pngjs sync, defaults, RGB (baseline)',
      'png',
      () => {
        const png = new PNG({ width: w, height: h, colorType: 2 });
        png.data = rgba;
        return PNG.sync.write(png, { colorType: 2 });
      },
    ],
    [
      'sharp jpeg q80, 4:2:0, no mozjpeg/optimise',
      'jpg',
      () =>
        sharp(rgba, raw)
          .removeAlpha()
          .jpeg({
            quality: 80,
            chromaSubsampling: '4:2:0',
            mozjpeg: false,
            optimiseCoding: false,
            trellisQuantisation: false,
            overshootDeringing: false,
            optimiseScans: false,
          })
          .toBuffer(),
    ],
    ['sharp jpeg q80, sharp defaults', 'jpg', () => sharp(rgba, raw).removeAlpha().jpeg({ quality: 80 }).toBuffer()],
    [
      'sharp png level 1, no adaptive filter, no palette',
      'png',
      () => sharp(rgba, raw).removeAlpha().png({ compressionLevel: 1, adaptiveFiltering: false, palette: false }).toBuffer(),
    ],
    [
      'sharp png level 1, adaptive filter',
      'png',
      () => sharp(rgba, raw).removeAlpha().png({ compressionLevel: 1, adaptiveFiltering: true, palette: false }).toBuffer(),
    ],
    [
      'vjd encode task jpg (in-process)',
      'jpg',
      async () => (await inProcess({ op: 'encode', pixels: sab, width: w, height: h, format: 'jpg' })).bytes,
    ],
    [
      'vjd encode task png: Up filter + node:zlib, Huffman-only here (in-process)',
      'png',
      async () => (await inProcess({ op: 'encode', pixels: sab, width: w, height: h, format: 'png' })).bytes,
    ],
    [
      'vjd PNG writer on the same frame, run-length forced (the strategy before per-image choice)',
      'png',
      () => writePng(new Uint8Array(sab), w, h, 4, 'rle'),
    ],
    [
      'vjd encode task png, flat card input: run-length (in-process)',
      'png',
      async () => (await inProcess({ op: 'encode', pixels: flat, width: w, height: h, format: 'png' })).bytes,
    ],
    [
      'EncodePool round trip jpg (1 thread)',
      'jpg',
      async () => (await pool.run({ op: 'encode', pixels: sab, width: w, height: h, format: 'jpg' })).bytes,
    ],
    [
      'EncodePool round trip png (1 thread)',
      'png',
      async () => (await pool.run({ op: 'encode', pixels: sab, width: w, height: h, format: 'png' })).bytes,
    ],
  ];
  // Rounds interleave the encoders, so a burst of load on this shared machine lands on all of them alike.
  const samples = new Map<string, number[]>(entries.map(([name]) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const bench = new Bench({
      time: TIME_MS / ROUNDS,
      iterations: 8,
      warmupTime: round === 0 ? 200 : 20,
      retainSamples: true,
      throws: true,
    });
    for (const [name, , fn] of entries) {
      bench.add(name, async () => {
        sizes.set(name, (await fn()).byteLength);
      });
    }
    await bench.run();
    for (const t of bench.tasks) {
      const r = t.result as unknown as { latency?: { samples?: ArrayLike<number> } } | undefined;
      samples.get(t.name)!.push(...Array.from(r?.latency?.samples ?? []));
    }
  }
  const sizeRows = entries.map(([name, format]) => {
    const sorted = samples.get(name)!.sort((a, b) => a - b);
    const q = (p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
    return {
      size: `${w}×${h}`,
      format,
      name,
      p50Ms: q(0.5),
      p99Ms: q(0.99),
      bytes: sizes.get(name) ?? 0,
      samples: sorted.length,
      speedup: NaN,
    };
  });
  for (const row of sizeRows) {
    const base = sizeRows.find((r) => r.format === row.format && r.name.endsWith('(baseline)'))!;
    row.speedup = base.p50Ms / row.p50Ms;
  }
  rows.push(...sizeRows);
}
await pool.close();

const cpu = cpus();
// The 1-minute load average says how much else ran on the machine, which moves these numbers a lot on 2 cores.
const machine = { cpu: cpu[0]?.model ?? 'unknown', cores: cpu.length, node: process.version, loadBefore, loadAfter: loadavg()[0]! };
const fmt = (n: number): string => n.toFixed(n < 10 ? 3 : 1);
const lines = [
  `Machine: ${machine.cpu}, ${machine.cores} cores, Node ${machine.node}. tinybench, ${TIME_MS} ms per task in ${ROUNDS} interleaved rounds, latency in ms. Load average ${loadBefore.toFixed(2)} before, ${machine.loadAfter.toFixed(2)} after.`,
  '',
  "Input: gradient plus ±8 noise (the flat card row: one colour with a block of text-like strokes), top-down RGBA, alpha dropped (opaque output) everywhere. vjd's PNG writer picks Huffman-only deflate for frames and run-length for images whose filtered pixels mostly repeat. Speedup = baseline p50 / row p50, against jpeg-js for JPEG rows and pngjs for PNG rows.",
  '',
  '| size | encoder | p50 ms | p99 ms | bytes | samples | speedup |',
  '|---|---|---:|---:|---:|---:|---:|',
  ...rows.map(
    (r) => `| ${r.size} | ${r.name} | ${fmt(r.p50Ms)} | ${fmt(r.p99Ms)} | ${r.bytes} | ${r.samples} | ${r.speedup.toFixed(1)}× |`,
  ),
];
const md = lines.join('\n');
await mkdir(join(ROOT, 'bench', 'results'), { recursive: true });
await writeFile(join(ROOT, 'bench', 'results', 'encode.md'), `${md}\n`);
await writeFile(
  join(ROOT, 'bench', 'results', 'encode.json'),
  `${JSON.stringify({ date: new Date().toISOString(), machine, timeMs: TIME_MS, rounds: ROUNDS, rows }, null, 2)}\n`,
);
process.stdout.write(`${md}\n`);
