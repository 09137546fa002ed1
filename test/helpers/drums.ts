// Drum tracks synthesised here as PCM (a pitched-down kick, a noise snare or clap, noise hats) in the styles a set
// moves between: a 90 BPM hip-hop groove, a 128 BPM house groove, a 174 BPM drum-and-bass two-step. Deterministic
// (seeded noise), so a bench or test run hears the same track every time.

export type Groove = 'hiphop' | 'house' | 'dnb';

/** One hit in a bar of sixteen sixteenths: its step, instrument and level. */
interface Hit {
  step: number;
  kind: 'kick' | 'snare' | 'clap' | 'hat';
  level: number;
}

const bar = (kind: Hit['kind'], level: number, steps: number[]): Hit[] => steps.map((step) => ({ step, kind, level }));

const GROOVES: Record<Groove, Hit[]> = {
  // Kick on one and the "and" of two-and-a-half, snare on two and four, eighth hats.
  hiphop: [...bar('kick', 1, [0, 7, 10]), ...bar('snare', 0.8, [4, 12]), ...bar('hat', 0.25, [0, 2, 4, 6, 8, 10, 12, 14])],
  // Four on the floor, a clap on two and four, open hats on the off-beats and soft sixteenths between.
  house: [
    ...bar('kick', 1, [0, 4, 8, 12]),
    ...bar('clap', 0.6, [4, 12]),
    ...bar('hat', 0.35, [2, 6, 10, 14]),
    ...bar('hat', 0.1, [1, 3, 5, 7, 9, 11, 13, 15]),
  ],
  // The two-step: kick on one and the "and" of three, snare on two and four, eighth hats.
  dnb: [...bar('kick', 1, [0, 10]), ...bar('snare', 0.9, [4, 12]), ...bar('hat', 0.2, [0, 2, 4, 6, 8, 10, 12, 14])],
};

/** The groove each tempo of the bench and tests is played as. */
export const GROOVE_OF: Record<number, Groove> = { 90: 'hiphop', 128: 'house', 174: 'dnb' };

/** A small seeded generator: the same noise on every run. */
function noise(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0;
    return s / 2 ** 31 - 1;
  };
}

/** Adds one hit starting at sample `at` into `out`. */
function strike(out: Float32Array, at: number, hit: Hit, rate: number, rnd: () => number): void {
  const len = Math.min(out.length - at, Math.round(rate * (hit.kind === 'kick' ? 0.35 : hit.kind === 'hat' ? 0.06 : 0.2)));
  let phase = 0;
  for (let i = 0; i < len; i++) {
    const t = i / rate;
    let v: number;
    if (hit.kind === 'kick') {
      // The pitch falls from about 150 Hz to 50 Hz: the body of a kick.
      phase += (2 * Math.PI * (50 + 100 * Math.exp(-t * 30))) / rate;
      v = Math.sin(phase) * Math.exp(-t * 9);
    } else if (hit.kind === 'hat') {
      v = rnd() * Math.exp(-t * 70);
    } else {
      const tone = hit.kind === 'snare' ? 0.5 * Math.sin(2 * Math.PI * 190 * t) * Math.exp(-t * 30) : 0;
      v = (rnd() * 0.8 + tone) * Math.exp(-t * (hit.kind === 'clap' ? 35 : 22));
    }
    out[at + i] = out[at + i]! + 0.7 * hit.level * v;
  }
}

/**
 * `seconds` of a groove at `bpm`, mono at `rate`, its first beat at sample `offset` (earlier samples are the tail of
 * the bar before, so a track can start anywhere in its bar).
 */
export function drums(groove: Groove, bpm: number, seconds: number, rate: number, offset = 0): Float32Array {
  const out = new Float32Array(Math.round(seconds * rate));
  const rnd = noise(bpm * 7919 + groove.length);
  const step = (60 / bpm / 4) * rate;
  const barSteps = 16;
  const firstBar = -Math.ceil(offset / (step * barSteps));
  for (let b = firstBar; offset + b * barSteps * step < out.length; b++) {
    for (const hit of GROOVES[groove]) {
      const at = Math.round(offset + (b * barSteps + hit.step) * step);
      if (at >= 0 && at < out.length) strike(out, at, hit, rate, rnd);
    }
  }
  return out;
}
