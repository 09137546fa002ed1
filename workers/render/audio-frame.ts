// The audio of one frame, read from the shared blocks without a message: levels and onset at the frame's due instant
// shifted by the clock's offsetMs, the beat position there, and (on demand) the latest spectrum and waveform.
import { AUDIO_BINS, AudioBlockReader, type AudioRecord } from '../../src/shared/audio-block.js';
import { AUDIO_STALE_MS } from '../../src/shared/modulation.js';
import { beatAt, TempoBlockReader } from '../../src/shared/tempo-block.js';
import type { FrameAudio } from './isf-builtins.js';
import type { AudioTextures } from './audio-textures.js';

/** Indexes into the values vector, in AUDIO_UNIFORMS order. */
const LEVEL = 0;
const ONSET = 5;
const BPM = 6;
const BEAT_PHASE = 7;
const BEAT_COUNT = 8;
const BAR_PHASE = 9;

/** Largest look-back or look-ahead honoured (config audio.offsetMs is bounded the same way). */
const OFFSET_MAX_MS = 500;

export class AudioFrame implements FrameAudio {
  readonly values = new Float32Array(10);
  /** Beats since beat 0 at the frame's instant, fractional (modulators read it in full precision); NaN without a clock. */
  beats = Number.NaN;
  /** A new onset arrived since the previous frame. */
  onsetFresh = false;
  /** A hop was analysed shortly before the frame's instant: false without an input and while it is stalled. */
  fresh = false;
  textures: AudioTextures | null = null;
  /** Frames updated so far: textures upload at most once per value of it. */
  frame = 0;
  private readonly analysis: AudioBlockReader | null;
  private readonly tempo: TempoBlockReader | null;
  private readonly record: AudioRecord = { t: 0, level: 0, bass: 0, lowMid: 0, highMid: 0, high: 0, onset: 0, onsets: 0 };
  private lastOnsets = -1;
  readonly spectrum = new Float32Array(AUDIO_BINS);
  readonly waveform = new Float32Array(AUDIO_BINS);
  /** Which write of the block spectrum/waveform hold (-2: never read), and the frame they were read on. */
  private spectraVersion = -2;
  private spectraFrame = -1;

  constructor(block: SharedArrayBuffer | null, tempo: SharedArrayBuffer | null) {
    this.analysis = block ? new AudioBlockReader(block) : null;
    this.tempo = tempo ? new TempoBlockReader(tempo) : null;
  }

  /** Reads the values of due instant `due` (epoch ms, the clockNow base) for the coming frame. */
  update(due: number): void {
    this.frame++;
    const v = this.values;
    let offset = 0;
    if (this.tempo) {
      let clock;
      try {
        clock = this.tempo.read();
      } catch {
        clock = null;
      }
      if (clock) {
        offset = Number.isFinite(clock.offsetMs) ? Math.max(-OFFSET_MAX_MS, Math.min(OFFSET_MAX_MS, clock.offsetMs)) : 0;
        const b = beatAt(clock, due + offset);
        const ok = Number.isFinite(b.beats);
        this.beats = ok ? b.beats : Number.NaN;
        v[BPM] = Number.isFinite(clock.bpm) ? clock.bpm : 0;
        v[BEAT_PHASE] = ok ? b.phase : 0;
        v[BEAT_COUNT] = ok ? b.beatCount : 0;
        v[BAR_PHASE] = ok ? b.barPhase : 0;
      }
    }
    if (!this.analysis) return;
    const r = this.record;
    const found = this.analysis.at(due + offset, r);
    // A look-ahead reads the newest hop, which can only be as recent as the frame's own instant.
    this.fresh = found && Math.min(due, due + offset) - r.t <= AUDIO_STALE_MS;
    v[LEVEL] = r.level;
    v[LEVEL + 1] = r.bass;
    v[LEVEL + 2] = r.lowMid;
    v[LEVEL + 3] = r.highMid;
    v[LEVEL + 4] = r.high;
    // Full on the first frame that sees a new onset, then the hop's own decay, so a flash does not depend on
    // where within the frame period the onset's hop fell.
    const fresh = this.lastOnsets >= 0 && r.onsets > this.lastOnsets;
    v[ONSET] = fresh ? 1 : r.onset;
    this.onsetFresh = fresh;
    this.lastOnsets = r.onsets;
  }

  /** Refreshes spectrum and waveform at most once per frame; returns which write of the block they hold. */
  spectra(): number {
    if (this.analysis && this.spectraFrame !== this.frame) {
      this.spectraFrame = this.frame;
      this.spectraVersion = this.analysis.spectra(this.spectrum, this.waveform);
    }
    return this.spectraVersion;
  }
}
