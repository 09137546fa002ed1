// Generated rhythm patterns for the beat tracker (ffmpeg aevalsrc expressions: clicks, a kick with off-beat hats,
// a syncopated break, a tempo change) and an offline run of the analyser and tracker over their PCM.
import { spawn } from 'node:child_process';
import { Analyser } from '../../workers/audio/analysis.js';
import { BeatTracker, type BeatEstimate } from '../../workers/audio/beat-tracker.js';

export const SAMPLE_RATE = 48_000;
export const HOP = 512;
export const HOPS_PER_SECOND = SAMPLE_RATE / HOP;

export type PatternKind = 'clicks' | 'kick-hats' | 'break';

/** Rounded so the expressions stay short; the truth is the rounded period's tempo. */
const period = (bpm: number): string => (60 / bpm).toFixed(9);

/** A 1 kHz click of 30 ms on every beat. */
export function clicks(bpm: number): string {
  return `if(lt(mod(t,${period(bpm)}),0.03),0.8*sin(2*PI*1000*t),0)`;
}

/** A pitched-down kick on every beat and a noise hat on every off-beat. */
export function kickHats(bpm: number): string {
  const p = period(bpm);
  const kick = `exp(-9*mod(t,${p}))*sin(2*PI*(45*mod(t,${p})+4*(1-exp(-30*mod(t,${p})))))`;
  const hat = `0.25*exp(-60*mod(t+${p}/2,${p}))*(2*random(0)-1)`;
  return `0.8*${kick}+${hat}`;
}

/** One bar of sixteenths: kicks off the grid, snares on two and four with ghost notes, hats on the eighths. */
export function syncopatedBreak(bpm: number): string {
  const q = (60 / bpm / 4).toFixed(9);
  const s = `floor(mod(t,16*${q})/${q})`;
  const tau = `mod(t,${q})`;
  const kick = `(eq(${s},0)+eq(${s},6)+eq(${s},10)+eq(${s},11))*exp(-12*${tau})*sin(2*PI*(45*${tau}+4*(1-exp(-30*${tau}))))`;
  const snare = `(eq(${s},4)+eq(${s},12)+0.4*eq(${s},7)+0.4*eq(${s},15))*0.6*exp(-25*${tau})*(2*random(0)-1)`;
  const hat = `eq(mod(${s},2),0)*0.15*exp(-70*${tau})*(2*random(1)-1)`;
  return `0.8*${kick}+${snare}+${hat}`;
}

export function pattern(kind: PatternKind, bpm: number): string {
  return kind === 'clicks' ? clicks(bpm) : kind === 'kick-hats' ? kickHats(bpm) : syncopatedBreak(bpm);
}

/** Clicks at `from` BPM, then at `to` BPM after `at` seconds. */
export function change(from: number, to: number, at: number): string {
  return `if(lt(t,${at}),${clicks(from)},${clicks(to)})`;
}

/** The lavfi source text of an expression (as config audio.inputs takes it). */
export function lavfi(expr: string, seconds?: number): string {
  return `aevalsrc='${expr}':s=${SAMPLE_RATE}${seconds === undefined ? '' : `:d=${seconds}`}`;
}

/** Renders an expression to mono float PCM at the analysis rate (faster than real time). */
export function render(expr: string, seconds: number): Promise<Float32Array> {
  return new Promise((resolve, reject) => {
    const args = ['-hide_banner', '-nostdin', '-loglevel', 'error', '-f', 'lavfi', '-i', lavfi(expr, seconds)];
    const p = spawn('ffmpeg', [...args, '-ac', '1', '-ar', String(SAMPLE_RATE), '-f', 'f32le', 'pipe:1']);
    const chunks: Buffer[] = [];
    let err = '';
    p.stdout.on('data', (c: Buffer) => chunks.push(c));
    p.stderr.on('data', (c: Buffer) => (err += c.toString()));
    p.on('error', reject);
    p.on('close', (code) => {
      if (code !== 0) return reject(new Error(`ffmpeg exited ${code}: ${err}`));
      const buf = Buffer.concat(chunks);
      const copy = new Uint8Array(buf.byteLength - (buf.byteLength % 4));
      copy.set(buf.subarray(0, copy.length));
      resolve(new Float32Array(copy.buffer));
    });
  });
}

export interface Estimate extends BeatEstimate {
  /** Seconds of input heard when the estimate was made. */
  at: number;
}

/**
 * Runs the analyser and a tracker over the PCM with hop times counted from `t0` (epoch ms); every estimate made.
 * `burst` hops share one arrival time (that of the burst's last hop), as when a pipe delivers several at once.
 */
export function track(pcm: Float32Array, range?: { min: number; max: number }, t0 = 0, burst = 1): Estimate[] {
  const analyser = new Analyser(SAMPLE_RATE, HOP);
  const tracker = new BeatTracker(HOPS_PER_SECOND);
  if (range) tracker.setRange(range.min, range.max);
  const out: Estimate[] = [];
  for (let i = 0; (i + 1) * HOP <= pcm.length; i++) {
    const r = analyser.analyse(pcm.subarray(i * HOP, (i + 1) * HOP), null);
    const at = ((i + 1) * HOP) / SAMPLE_RATE;
    const arrival = ((Math.floor(i / burst) + 1) * burst * HOP) / SAMPLE_RATE;
    if (!tracker.push(r.strength, t0 + arrival * 1000)) continue;
    const e = tracker.estimate();
    if (e) out.push({ ...e, at });
  }
  return out;
}

/** Seconds until every later estimate is within `tolerance` BPM of `bpm` (null: never locked). */
export function lockTime(estimates: Estimate[], bpm: number, tolerance = 1, from = 0): number | null {
  let lock: number | null = null;
  for (const e of estimates) {
    if (e.at < from) continue;
    if (Math.abs(e.bpm - bpm) > tolerance) lock = null;
    else if (lock === null) lock = e.at;
  }
  return lock === null ? null : lock - from;
}

/** Median of a list of numbers. */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
