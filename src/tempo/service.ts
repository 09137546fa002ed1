// The tempo clock as the rest of vjd sees it (src/tempo/types.ts): views read from the shared block, changes sent to
// the audio worker that owns the clock and saved in state.json, and one timer that fires at each beat for listeners.
import type { AudioConfig } from '../config/audio.js';
import type { Logger } from '../log.js';
import { TEMPO_LIMITS } from '../limits.js';
import type { TempoCommand } from '../shared/protocol/audio.js';
import { beatAt, clockNow, type TempoClock } from '../shared/tempo-block.js';
import type { ShowState, StateStore } from '../state/store.js';
import type { AudioClient } from '../workers/audio-client.js';
import type { BeatEvent, SharedBeat, Tempo, TempoSource, TempoView } from './types.js';

/** The clock a start begins with: the saved settings over the config's. */
export function startClock(config: AudioConfig, saved: Readonly<ShowState>): { clock: TempoClock; manualBpm: number | null } {
  const t = saved.tempo;
  const clamp = (v: number): number => Math.min(TEMPO_LIMITS.bpmMax, Math.max(TEMPO_LIMITS.bpmMin, v));
  const range = t && t.range.max >= t.range.min * TEMPO_LIMITS.rangeMinRatio ? t.range : config.tempoRange;
  return {
    clock: {
      bpm: clamp(t?.bpm ?? 120),
      refTime: clockNow(),
      refBeat: 0,
      beatsPerBar: config.beatsPerBar,
      source: t?.source ?? 'auto',
      confidence: !t || t.source === 'auto' ? 0 : 1,
      range: { min: clamp(range.min), max: clamp(range.max) },
      offsetMs: saved.audioSettings?.offsetMs ?? config.offsetMs,
    },
    manualBpm: t?.manualBpm == null ? null : clamp(t.manualBpm),
  };
}

/** Rounded for answers: more digits than this only show float noise. */
const round = (v: number, digits: number): number => Math.round(v * 10 ** digits) / 10 ** digits;

export class TempoService implements Tempo {
  private readonly listeners = new Set<(b: BeatEvent) => void>();
  private timer: NodeJS.Timeout | null = null;
  private lastBeat: number | null = null;
  private manualBpm: number | null;

  constructor(
    private readonly client: AudioClient,
    private readonly state: StateStore,
    private readonly log: Logger,
    manualBpm: number | null,
  ) {
    this.manualBpm = manualBpm;
  }

  view(): TempoView {
    const c = this.client.readTempo();
    const at = clockNow();
    const p = beatAt(c, at);
    return {
      bpm: round(c.bpm, 3),
      source: c.source,
      confidence: round(c.confidence, 3),
      beat: p.beatCount,
      bar: p.bar,
      phase: round(p.phase, 4),
      beatsPerBar: c.beatsPerBar,
      range: { ...c.range },
      position: round(p.beats, 4),
      at: round(at, 2),
    };
  }

  clock(): TempoClock {
    return this.client.readTempo();
  }

  tap(): Promise<TempoView> {
    // Stamped here, before any hop to the worker, so the worker's latency does not skew the intervals.
    return this.command({ op: 'tap' }, clockNow());
  }

  setBpm(bpm: number): Promise<TempoView> {
    return this.command({ op: 'bpm', bpm }, clockNow());
  }

  resync(): Promise<TempoView> {
    return this.command({ op: 'resync' }, clockNow());
  }

  nudge(ms: number): Promise<TempoView> {
    return this.command({ op: 'nudge', ms }, clockNow());
  }

  multiply(factor: 0.5 | 2): Promise<TempoView> {
    return this.command({ op: 'multiply', factor }, clockNow());
  }

  setSource(source: TempoSource): Promise<TempoView> {
    return this.command({ op: 'source', source }, clockNow());
  }

  lock(shared: SharedBeat): Promise<TempoView> {
    return this.command({ op: 'lock', ...shared }, clockNow());
  }

  setRange(min: number, max: number): Promise<TempoView> {
    return this.command({ op: 'range', min, max }, clockNow());
  }

  onBeat(listener: (b: BeatEvent) => void): () => void {
    this.listeners.add(listener);
    if (this.listeners.size === 1) this.arm();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.disarm();
    };
  }

  stop(): void {
    this.listeners.clear();
    this.disarm();
  }

  private async command(cmd: TempoCommand, at: number): Promise<TempoView> {
    await this.client.tempoCommand(cmd, at);
    this.save();
    // The next beat instant moved with the clock.
    if (this.listeners.size > 0) this.arm();
    return this.view();
  }

  /** Saves what a restart must restore; the answer waits for the write (the adapter waits for durable()). */
  private save(): void {
    const c = this.client.readTempo();
    if (c.source === 'manual') this.manualBpm = c.bpm;
    const next = { source: c.source, bpm: c.bpm, manualBpm: this.manualBpm, range: { ...c.range } };
    const cur = this.state.peek().tempo;
    if (
      cur &&
      cur.source === next.source &&
      cur.bpm === next.bpm &&
      cur.manualBpm === next.manualBpm &&
      cur.range.min === next.range.min &&
      cur.range.max === next.range.max
    )
      return;
    this.state.update((s) => void (s.tempo = next));
    if (cur?.source !== next.source) this.log.info({ source: next.source, bpm: round(next.bpm, 2) }, 'tempo source changed');
  }

  private disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** One timer at the next beat instant as the block says now; the tracker may move it, so a fire re-checks. */
  private arm(): void {
    this.disarm();
    const c = this.client.readTempo();
    const now = clockNow();
    const pos = beatAt(c, now);
    const next = pos.beatCount + 1;
    const due = c.refTime + ((next - c.refBeat) * 60_000) / c.bpm;
    // Past the instant by a millisecond: a timer may fire a fraction early, and then the beat would not have come.
    const wait = Math.max(1, Math.min(60_000, due - now + 1));
    this.timer = setTimeout(() => this.fire(), wait);
    this.timer.unref();
  }

  private fire(): void {
    this.timer = null;
    const c = this.client.readTempo();
    const at = clockNow();
    const pos = beatAt(c, at);
    if (pos.beatCount !== this.lastBeat) {
      this.lastBeat = pos.beatCount;
      const event: BeatEvent = {
        beat: pos.beatCount,
        bar: pos.bar,
        bpm: round(c.bpm, 3),
        confidence: round(c.confidence, 3),
        source: c.source,
        position: round(pos.beats, 4),
        at: round(at, 2),
      };
      for (const l of [...this.listeners]) {
        try {
          l(event);
        } catch (err) {
          this.log.error({ err: (err as Error).message }, 'a beat listener failed');
        }
      }
    }
    if (this.listeners.size > 0) this.arm();
  }
}
