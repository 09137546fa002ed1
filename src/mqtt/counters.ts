// What the show link counts of the commands it hears, and the log lines for those it refuses: one line per kind
// per window at most (with how many were left out), so a flood of bad payloads costs a count, not a log.
import type { Logger } from '../log.js';
import { LogBudget } from '../transports/budgets.js';

export interface ShowCounters {
  /** Command messages heard. */
  received: number;
  /** Operations the route answered with a 2xx. */
  applied: number;
  /** Operations the route refused (a bad body, a missing item, …). */
  refused: number;
  /** Payloads that are not a command: not JSON, the wrong shape, not a POST on /api/v1/. */
  malformed: number;
  oversized: number;
  /** Operations on a path no route serves (404 NOT_FOUND, 405). */
  unknownRoute: number;
  /** Command messages with the retain flag: never replayed. */
  retainedIgnored: number;
  /** Commands over the backlog, dropped unapplied. */
  dropped: number;
}

export type Refusal = Exclude<keyof ShowCounters, 'received' | 'applied'>;

export class Counters {
  readonly counts: ShowCounters = {
    received: 0,
    applied: 0,
    refused: 0,
    malformed: 0,
    oversized: 0,
    unknownRoute: 0,
    retainedIgnored: 0,
    dropped: 0,
  };
  private readonly logBudget = new LogBudget();

  constructor(private readonly log: Logger) {}

  /** Counts a command that changed nothing and logs it within the budget of its kind. */
  refuse(kind: Refusal, topic: string, reason: string): void {
    this.counts[kind]++;
    const suppressed = this.logBudget.take(kind);
    if (suppressed === null) return;
    this.log.warn({ kind, topic: topic.slice(0, 200), reason: reason.slice(0, 300), suppressed }, 'show command ignored');
  }
}
