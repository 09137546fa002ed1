// The `tempo` topic's stream: one event per beat from the clock, and one as soon as the BPM or the source changes
// (a tap, ×2, a manual BPM), so a display need not wait for the next beat to show the new tempo.
import type { BeatEvent, Tempo } from '../tempo/types.js';

/** How often the clock is compared with the last event while someone listens (a change shows within this). */
const CHANGE_POLL_MS = 100;

export function tempoStream(tempo: Pick<Tempo, 'view' | 'onBeat'>): (emit: (dataText: string) => void) => () => void {
  return (emit) => {
    let last: BeatEvent | null = null;
    const send = (b: BeatEvent): void => {
      last = b;
      emit(
        JSON.stringify({
          beat: b.beat,
          bar: b.bar,
          bpm: b.bpm,
          confidence: b.confidence,
          source: b.source,
          position: b.position,
          at: b.at,
        }),
      );
    };
    const unsubscribe = tempo.onBeat(send);
    const timer = setInterval(() => {
      const v = tempo.view();
      if (last !== null && v.bpm === last.bpm && v.source === last.source) return;
      send({ beat: v.beat, bar: v.bar, bpm: v.bpm, confidence: v.confidence, source: v.source, position: v.position, at: v.at });
    }, CHANGE_POLL_MS);
    timer.unref();
    return () => {
      clearInterval(timer);
      unsubscribe();
    };
  };
}
