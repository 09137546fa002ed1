// Publishes this box's state when it changed, coalesced: however many changes come in, at most one publish per
// SHOW_LIMITS.stateMinIntervalMs, and a publish only when the state differs from the last one the broker took.
// A periodic check catches what no bus topic signals (the measured fps, a gliding BPM).
import { SHOW_LIMITS } from '../limits.js';

export class StatePublisher {
  /** The last state sent (without its time), or null when the broker may hold none of it. */
  private last: string | null = null;
  private sentAt = 0;
  private timer: NodeJS.Timeout | null = null;
  private check: NodeJS.Timeout | null = null;

  constructor(
    private readonly build: () => object,
    /** Sends the state payload; false when it could not go out (not connected). */
    private readonly send: (payload: string) => boolean,
  ) {}

  start(): void {
    this.check = setInterval(() => this.changed(), SHOW_LIMITS.stateCheckMs);
    this.check.unref();
  }

  stop(): void {
    if (this.check) clearInterval(this.check);
    if (this.timer) clearTimeout(this.timer);
    this.check = this.timer = null;
  }

  /** Something may have changed: it goes out within the coalescing interval if it did. */
  changed(): void {
    if (this.timer || !this.check) return;
    const wait = Math.max(0, this.sentAt + SHOW_LIMITS.stateMinIntervalMs - Date.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      this.publish();
    }, wait);
    this.timer.unref();
  }

  /** After a (re)connect: a restarted broker holds nothing of this box, so the state goes out whatever it is. */
  republish(): void {
    this.last = null;
    this.changed();
  }

  private publish(): void {
    const state = this.build();
    const text = JSON.stringify(state);
    if (text === this.last) return;
    if (!this.send(JSON.stringify({ ...state, at: new Date().toISOString() }))) return;
    this.last = text;
    this.sentAt = Date.now();
  }
}
