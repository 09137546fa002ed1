// What the app knows of a desk transport (OSC, DMX, MIDI): it starts, stops, reports its features and counters,
// and says what of the state bus it needs, so the app keeps one list of them and never names a transport's needs.
import type { StateBus } from '../events/bus.js';

/** The part of the state bus a transport follows for feedback. */
export type FeedbackBus = Pick<StateBus, 'listen'>;

export interface Transport {
  /** Follows the bus for feedback and opens its port or devices; one it cannot open is logged, never thrown. */
  start(bus: FeedbackBus): Promise<void>;
  stop(): void;
  /** Capability features while it runs (GET /capabilities). */
  features(): readonly string[];
  /** Whether state changes go out as feedback: the bus reads topics only while someone listens. */
  readonly sendsFeedback: boolean;
  /** Whether it wants a topic now: an on-demand topic (audio, tempo, transport) is read only while someone does. */
  wantsTopic(topic: string): boolean;
  /** Its counters and settings, as its own route (or GET /status) shows them. */
  stats(): object;
}
