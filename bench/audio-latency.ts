// Audio latency benchmark: from a click entering vjd's audio pipe to the first output frame whose beat-flash pixels
// are lit (read back from the output target), at 30 fps, with the real analyser, blocks and render engine; and the
// render frame time with the audio built-ins read and used against an engine without audio. Writes
// bench/results/audio-latency.{md,json}.
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import createGL from 'gl';
import { Catalog } from '../src/catalog/catalog.js';
import { log } from '../src/log.js';
import { AUDIO_BINS, AudioBlockWriter, createAudioBlock } from '../src/shared/audio-block.js';
import { clockNow, createTempoBlock } from '../src/shared/tempo-block.js';
import { ensureDisplay } from '../src/workers/xvfb.js';
import { Analyser } from '../workers/audio/analysis.js';
import { RenderEngine } from '../workers/render/engine.js';

const RATE = 48_000;
const HOP = AUDIO_BINS;
const FPS = 30;
const CLICK_EVERY_S = 0.5;
const CLICKS = Number(process.env.VJD_BENCH_CLICKS ?? 40);
const W = 640;
const H = 360;
// A 20 ms 1 kHz blip every half second, the shape of the default click input.
const CLICK = `aevalsrc='if(lt(mod(t,${CLICK_EVERY_S}),0.02),0.8*sin(2*PI*1000*t),0)':s=${RATE}:c=mono`;

const pct = (sorted: number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
const round = (v: number): number => Math.round(v * 100) / 100;

function newEngine(gl: WebGLRenderingContext, audio: { block: SharedArrayBuffer; tempo: SharedArrayBuffer } | undefined): RenderEngine {
  return new RenderEngine(gl, W, H, FPS, 'bench', null, { fuse: true, ...(audio ? { audio } : {}) });
}

async function main(): Promise<void> {
  const display = await ensureDisplay(log);
  process.env.DISPLAY = display.name;
  const catalog = new Catalog({ effects: [], sources: [], presets: [] }, log);
  await catalog.reload();
  const snap = catalog.snapshot;
  const gl = createGL(W, H, { preserveDrawingBuffer: false, antialias: false, depth: false, stencil: false });
  if (!gl) throw new Error('no GL context');
  const renderer = `${String(gl.getParameter(gl.RENDERER))} / ${String(gl.getParameter(gl.VERSION))}`;
  const block = createAudioBlock();
  const tempo = createTempoBlock({
    bpm: 120,
    refTime: clockNow(),
    refBeat: 0,
    beatsPerBar: 4,
    source: 'manual',
    confidence: 1,
    range: { min: 75, max: 150 },
    offsetMs: 0,
  });
  const setup = (e: RenderEngine, source: string): void => {
    e.setCatalog(snap.effects, snap.generators, snap.noSignal);
    e.requestSource(1, 'bench', Number.MAX_SAFE_INTEGER, {
      kind: 'generator',
      type: source,
      inputs: source === 'solid_color' ? { color: [0, 0, 0, 1] } : {},
    });
    // Onset trigger: the flash follows the click itself, whatever the tempo clock says.
    const r = e.chain.apply({
      op: 'add',
      type: 'beat_flash',
      idempotent: false,
      ceiling: 128,
      presetId: '',
      inputs: { trigger: 2, amount: 1 },
    });
    if (!r.ok) throw new Error(r.message);
  };

  // --- Onset to the output.
  const engine = newEngine(gl, { block, tempo });
  setup(engine, 'solid_color');
  const writer = new AudioBlockWriter(block);
  const analyser = new Analyser(RATE, HOP);
  const spectrum = new Float32Array(AUDIO_BINS);
  const hop = new Float32Array(HOP);
  let filled = 0;
  let samples = 0;
  /** Arrival instants of clicks not yet seen lit. */
  const pending: number[] = [];
  const latencies: number[] = [];
  let lit = false;
  engine.onFrame = () => {
    const [px] = engine.output.sample([[0.5, 0.5]]);
    const now = clockNow();
    const on = px![0]! > 128;
    if (on && !lit && pending.length > 0) latencies.push(now - pending.shift()!);
    lit = on;
    // A click that never lit within a second counts as missed.
    while (pending.length > 0 && now - pending[0]! > 1000) pending.shift();
  };
  const ff = spawn('ffmpeg', [
    '-hide_banner',
    '-nostdin',
    '-loglevel',
    'error',
    '-re',
    '-f',
    'lavfi',
    '-i',
    CLICK,
    '-ac',
    '1',
    '-ar',
    String(RATE),
    '-f',
    'f32le',
    'pipe:1',
  ]);
  let carry = Buffer.alloc(0);
  let missed = 0;
  let sent = 0;
  ff.stdout.on('data', (chunk: Buffer) => {
    const arrived = clockNow();
    const buf = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
    const whole = buf.length - (buf.length % 4);
    carry = Buffer.from(buf.subarray(whole));
    const period = CLICK_EVERY_S * RATE;
    for (let i = 0; i < whole; i += 4) {
      // The click's first sample entered the pipe in this chunk: that is when the room heard it, at best.
      if (samples % period === 0 && samples > 0) {
        if (pending.length > 0) missed++;
        pending.push(arrived);
        sent++;
      }
      hop[filled++] = buf.readFloatLE(i);
      samples++;
      if (filled === HOP) {
        filled = 0;
        const r = analyser.analyse(hop, null);
        analyser.spectrumInto(spectrum);
        writer.write(r.values, r.onset, { t: clockNow(), spectrum, waveform: analyser.waveform() });
      }
    }
  });
  engine.start();
  const doneAt = Date.now() + (CLICKS + 1) * CLICK_EVERY_S * 1000 + 1000;
  while (Date.now() < doneAt) await new Promise((r) => setTimeout(r, 200));
  ff.kill('SIGKILL');
  engine.stop();
  engine.onFrame = () => {};
  const stats = engine.snapshotStats();
  engine.destroy();
  latencies.sort((a, b) => a - b);

  // --- Frame time with audio read and used (the same chain on an engine with and without the blocks).
  const frameMs = (e: RenderEngine): number => {
    const times: number[] = [];
    for (let i = 0; i < 70; i++) {
      const t0 = performance.now();
      e.renderFrame(t0);
      gl.finish();
      if (i >= 10) times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    return pct(times, 0.5);
  };
  const withAudio = newEngine(gl, { block, tempo });
  const without = newEngine(gl, undefined);
  setup(withAudio, 'plasma');
  setup(without, 'plasma');
  let on = 0;
  let off = 0;
  // Alternating rounds, so a change in the machine's load hits both sides alike.
  for (let round = 0; round < 5; round++) {
    on += frameMs(withAudio);
    off += frameMs(without);
  }
  withAudio.destroy();
  without.destroy();
  gl.getExtension('STACKGL_destroy_context')?.destroy();
  await display.stop();

  const result = {
    renderer,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? '',
    fps: FPS,
    size: `${W}x${H}`,
    clicks: sent,
    measured: latencies.length,
    missed,
    droppedFrames: stats.droppedFrames,
    onsetToOutputMsP50: round(pct(latencies, 0.5)),
    onsetToOutputMsP99: round(pct(latencies, 0.99)),
    framePeriodMs: round(1000 / FPS),
    frameMsWithAudio: round(on / 5),
    frameMsWithoutAudio: round(off / 5),
    ratio: round(off / on),
  };
  const dir = join(fileURLToPath(new URL('../../', import.meta.url)), 'bench', 'results');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'audio-latency.json'), `${JSON.stringify(result, null, 2)}\n`);
  const md = [
    '# Audio: onset to the output, frame time with audio',
    '',
    `Renderer: ${renderer}; ${result.cpus} × ${result.cpuModel}; ${result.size} at ${FPS} fps.`,
    '',
    '| measure | value |',
    '|---|---|',
    `| onset to the output, p50 | ${result.onsetToOutputMsP50} ms (frame period ${result.framePeriodMs} ms) |`,
    `| onset to the output, p99 | ${result.onsetToOutputMsP99} ms |`,
    `| clicks measured / sent | ${result.measured} / ${sent} |`,
    `| frame time, beat flash with audio | ${result.frameMsWithAudio} ms |`,
    `| frame time, beat flash without audio blocks | ${result.frameMsWithoutAudio} ms |`,
    `| ratio (without / with) | ${result.ratio} |`,
    '',
  ].join('\n');
  await writeFile(join(dir, 'audio-latency.md'), md);
  process.stdout.write(`${md}\n`);
}

await main();
