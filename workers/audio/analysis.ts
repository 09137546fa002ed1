// Per-hop audio analysis: Hann-windowed FFT, smoothed magnitude spectrum, RMS level, four bands under one
// automatic gain, an onset detector (positive spectral flux against an adaptive threshold) and the onset strength the
// beat tracker follows.
import FFT from 'fft.js';
import type { AudioValues } from '../../src/shared/audio-block.js';

/** Band edges in Hz (docs/audio.md, "Audio"): bass, low-mid, high-mid, high. */
export const BAND_EDGES: ReadonlyArray<readonly [number, number]> = [
  [20, 250],
  [250, 2000],
  [2000, 6000],
  [6000, 20_000],
];

/** Spectrum smoothing: a rise is followed fast, a fall slowly, so a hit stays visible for a few frames. */
const ATTACK = 0.6;
const RELEASE = 0.15;
/** The automatic gain's peak halves over this many seconds of quieter input. */
const PEAK_HALF_LIFE_S = 8;
/** Below this the gain stops growing: a silent input must read near 0, not amplified noise. */
const PEAK_FLOOR = 1e-3;
/** Onset threshold: the mean flux of the recent hops times the factor, plus a floor. */
const FLUX_HISTORY_S = 0.5;
const FLUX_FACTOR = 1.6;
const FLUX_FLOOR = 0.05;
/** Two onsets at least this far apart: one hit spans several hops of rising flux. */
const ONSET_GAP_S = 0.08;
/** The onset value after an onset's hop falls by this factor per hop. */
const ONSET_DECAY = 0.85;
/**
 * Onset strength: magnitudes relative to the automatic gain's peak are log-compressed before their rise is summed,
 * so a soft hit counts beside a loud one and the strength does not follow the input's volume.
 */
const STRENGTH_COMPRESSION = 100;
/**
 * Each band's share of the onset strength (bass first), spread over its bins: without it a broadband hat outweighs a
 * kick, and the beat grid would lock to the off-beats of a four-on-the-floor pattern.
 */
const STRENGTH_BAND_WEIGHTS = [0.55, 0.25, 0.12, 0.08];

export interface AnalysisResult {
  values: AudioValues;
  onset: boolean;
  /** Onset strength of this hop (positive log-spectral flux, before any threshold): the beat tracker's input. */
  strength: number;
}

export class Analyser {
  private readonly fft: FFT;
  private readonly window: Float64Array;
  private readonly frame: Float64Array;
  private readonly spectrum: number[];
  /** Windowed samples of the latest `size` samples (two hops: finer bass bins than one hop would give). */
  private readonly history: Float32Array;
  private readonly smoothed: Float64Array;
  private readonly previous: Float64Array;
  private readonly previousLog: Float64Array;
  private readonly strengthWeights: Float64Array;
  private readonly bandBins: Array<[number, number]>;
  private readonly fluxes: Float64Array;
  private fluxAt = 0;
  private fluxCount = 0;
  private readonly peakDecay: number;
  private bandPeak = PEAK_FLOOR;
  private levelPeak = PEAK_FLOOR;
  private onsetValue = 0;
  private sinceOnset = Number.MAX_SAFE_INTEGER;
  private readonly onsetGapHops: number;
  private readonly windowSum: number;
  /** The band gain of the latest hop, so the spectrum reads on the bands' scale. */
  private lastGain = 1 / PEAK_FLOOR;
  /** The latest hop's samples: a view of the end of `history`. */
  private readonly latest: Float32Array;
  /** Hops analysed since the start or a reset, up to the hops the analysis window spans. */
  private primed = 0;

  constructor(
    sampleRate: number,
    private readonly hop: number,
  ) {
    const size = hop * 2;
    this.fft = new FFT(size);
    this.window = new Float64Array(size);
    for (let i = 0; i < size; i++) this.window[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (size - 1));
    this.windowSum = this.window.reduce((a, b) => a + b, 0);
    this.frame = new Float64Array(size);
    this.spectrum = this.fft.createComplexArray() as number[];
    this.history = new Float32Array(size);
    this.latest = this.history.subarray(size - hop);
    const bins = size / 2;
    this.smoothed = new Float64Array(bins);
    this.previous = new Float64Array(bins);
    this.previousLog = new Float64Array(bins);
    const binHz = sampleRate / size;
    this.bandBins = BAND_EDGES.map(([lo, hi]) => [Math.max(1, Math.round(lo / binHz)), Math.min(bins, Math.round(hi / binHz))]);
    this.strengthWeights = new Float64Array(bins);
    this.bandBins.forEach(([lo, hi], b) => {
      const from = b === 0 ? 0 : lo;
      const to = b === this.bandBins.length - 1 ? bins : hi;
      for (let k = from; k < to; k++) this.strengthWeights[k] = STRENGTH_BAND_WEIGHTS[b]! / Math.max(1, to - from);
    });
    const hopsPerSecond = sampleRate / hop;
    this.fluxes = new Float64Array(Math.max(4, Math.round(FLUX_HISTORY_S * hopsPerSecond)));
    this.peakDecay = 0.5 ** (1 / (PEAK_HALF_LIFE_S * hopsPerSecond));
    this.onsetGapHops = Math.max(1, Math.round(ONSET_GAP_S * hopsPerSecond));
  }

  /**
   * Analyses one hop of `hop` samples. `gain`: a fixed gain instead of the automatic one (config audio.gain), or
   * null.
   */
  analyse(samples: Float32Array, gain: number | null): AnalysisResult {
    const hop = this.hop;
    const size = this.history.length;
    this.history.copyWithin(0, hop);
    this.history.set(samples.subarray(0, hop), size - hop);
    let sumSquares = 0;
    for (let i = 0; i < hop; i++) sumSquares += samples[i]! * samples[i]!;
    const rms = Math.sqrt(sumSquares / hop);
    for (let i = 0; i < size; i++) this.frame[i] = this.history[i]! * this.window[i]!;
    this.fft.realTransform(this.spectrum, this.frame);

    // Amplitude per bin: a sine reads its own amplitude in its bin.
    const scale = 2 / this.windowSum;
    const bins = this.smoothed.length;
    let flux = 0;
    const norm = gain === null ? 1 / this.bandPeak : gain;
    for (let k = 0; k < bins; k++) {
      const re = this.spectrum[2 * k]!;
      const im = this.spectrum[2 * k + 1]!;
      const mag = Math.sqrt(re * re + im * im) * scale;
      const rise = mag - this.previous[k]!;
      if (rise > 0) flux += rise * norm;
      this.previous[k] = mag;
      const s = this.smoothed[k]!;
      this.smoothed[k] = s + (mag > s ? ATTACK : RELEASE) * (mag - s);
    }

    const raw = this.bandBins.map(([lo, hi]) => {
      let e = 0;
      for (let k = lo; k < hi; k++) e += this.smoothed[k]! * this.smoothed[k]!;
      return Math.sqrt(e);
    });
    this.bandPeak = Math.max(PEAK_FLOOR, this.bandPeak * this.peakDecay, ...raw);
    this.levelPeak = Math.max(PEAK_FLOOR, this.levelPeak * this.peakDecay, rms);
    const strength = this.strength();
    const bandGain = gain ?? 1 / this.bandPeak;
    const levelGain = gain ?? 1 / this.levelPeak;
    this.lastGain = bandGain;
    const onset = this.detectOnset(flux);
    // Until the window holds only heard samples, the rise is from nothing: one huge false hit that would swamp the
    // tracker's envelope until it leaves the window.
    const full = this.primed >= size / hop;
    if (!full) this.primed++;
    const clamp = (v: number): number => (v > 1 ? 1 : v < 0 || !Number.isFinite(v) ? 0 : v);
    return {
      values: {
        level: clamp(rms * levelGain),
        bass: clamp(raw[0]! * bandGain),
        lowMid: clamp(raw[1]! * bandGain),
        highMid: clamp(raw[2]! * bandGain),
        high: clamp(raw[3]! * bandGain),
        onset: this.onsetValue,
        hopMs: 0,
      },
      onset,
      strength: full ? strength : 0,
    };
  }

  /**
   * The rise of the log-compressed spectrum (`previous` holds this hop's magnitudes), measured against the peak that
   * already counts this hop: against the peak before it, the first hit after silence reads several times any later one.
   * A fixed gain is ignored: the tracker wants the shape of the envelope, not its volume.
   */
  private strength(): number {
    const compress = STRENGTH_COMPRESSION / this.bandPeak;
    let strength = 0;
    for (let k = 0; k < this.previous.length; k++) {
      const logMag = Math.log1p(this.previous[k]! * compress);
      const logRise = logMag - this.previousLog[k]!;
      if (logRise > 0) strength += logRise * this.strengthWeights[k]!;
      this.previousLog[k] = logMag;
    }
    return strength;
  }

  /** Flux above the recent mean (times a factor, plus a floor), no sooner than the gap after the last onset. */
  private detectOnset(flux: number): boolean {
    const n = Math.min(this.fluxCount, this.fluxes.length);
    let mean = 0;
    for (let i = 0; i < n; i++) mean += this.fluxes[i]!;
    mean = n > 0 ? mean / n : 0;
    this.fluxes[this.fluxAt] = flux;
    this.fluxAt = (this.fluxAt + 1) % this.fluxes.length;
    this.fluxCount++;
    this.sinceOnset++;
    const onset = n > 0 && flux > mean * FLUX_FACTOR + FLUX_FLOOR && this.sinceOnset >= this.onsetGapHops;
    if (onset) this.sinceOnset = 0;
    this.onsetValue = onset ? 1 : this.onsetValue * ONSET_DECAY;
    return onset;
  }

  /** Fills `out` with the smoothed magnitude spectrum (DC up to Nyquist) under the bands' gain, clamped to 0..1. */
  spectrumInto(out: Float32Array): void {
    const n = Math.min(out.length, this.smoothed.length);
    for (let k = 0; k < n; k++) {
      const v = this.smoothed[k]! * this.lastGain;
      out[k] = Math.min(1, Math.max(0, v));
    }
  }

  /** The latest hop's samples (a live view: copy before the next hop). */
  waveform(): Float32Array {
    return this.latest;
  }

  /** Forgets the previous input (a new one starts from a clean gain and onset history). */
  reset(): void {
    this.history.fill(0);
    this.primed = 0;
    this.smoothed.fill(0);
    this.previous.fill(0);
    this.previousLog.fill(0);
    this.fluxes.fill(0);
    this.fluxCount = 0;
    this.fluxAt = 0;
    this.bandPeak = PEAK_FLOOR;
    this.levelPeak = PEAK_FLOOR;
    this.onsetValue = 0;
    this.sinceOnset = Number.MAX_SAFE_INTEGER;
  }
}
