// The `live` topic's stream: the applied values of the modulated inputs, read from what the render worker last
// reported, sent at most LIVE_TOPIC_MS apart and only when they changed. It runs only while a client subscribes.
import type { LiveReport } from '../shared/protocol/render.js';

/** One modulated input's applied value (a component's for point2D and color inputs). */
export interface LiveInput {
  input: string;
  component?: string;
  live: unknown;
}

/** What the topic sends: effect inputs by chain position, the program generator's inputs, the T-bar and the dimmer. */
export interface LiveValues {
  effects: Array<{ index: number } & LiveInput>;
  source: LiveInput[];
  mix?: number;
  dimmer?: number;
}

/** The render worker's report as the topic sends it: `input.component` keys split, chain positions 1-based as in the routes. */
export function liveValuesOf(r: LiveReport | null): LiveValues {
  if (!r) return NO_LIVE_VALUES;
  const split = (values: Record<string, number | boolean>): LiveInput[] =>
    Object.entries(values).map(([key, live]) => {
      const dot = key.indexOf('.');
      return dot < 0 ? { input: key, live } : { input: key.slice(0, dot), component: key.slice(dot + 1), live };
    });
  const out: LiveValues = {
    effects: r.effects.flatMap((values, i) => (values ? split(values).map((v) => ({ index: i + 1, ...v })) : [])),
    source: r.generator ? split(r.generator.values) : [],
  };
  if (r.mix !== null) out.mix = r.mix;
  if (r.dimmer !== null) out.dimmer = r.dimmer;
  return out;
}

/** What a show without a modulator reports. */
export const NO_LIVE_VALUES: LiveValues = Object.freeze({ effects: [], source: [] }) as LiveValues;

/** At most 30 events a second. */
export const LIVE_TOPIC_MS = 34;

export function liveStream(read: () => LiveValues): (emit: (dataText: string) => void) => () => void {
  return (emit) => {
    let last = '';
    const tick = (): void => {
      const text = JSON.stringify(read());
      if (text === last) return;
      last = text;
      emit(text);
    };
    const timer = setInterval(tick, LIVE_TOPIC_MS);
    timer.unref();
    return () => clearInterval(timer);
  };
}
