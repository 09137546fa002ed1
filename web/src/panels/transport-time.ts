// Transport arithmetic for the page: the span the scrub bar covers, the position moved on since the last event, and
// times as m:ss.s.
import type { Got } from '../api-shapes';

export type Bus = 'program' | 'preview';
export type ClipView = NonNullable<Got<'/transport'>['program']>;

/** The in-out span in seconds from the file's start (the whole file where no point is set). */
export function span(v: ClipView): { start: number; end: number } {
  const start = v.in ?? 0;
  const end = v.out ?? v.durationS ?? Math.max(start, v.positionS);
  return { start, end: Math.max(end, start) };
}

/** Where a playing clip is `sinceMs` after the view was read: events come a few times a second, frames more often. */
export function moved(v: ClipView, sinceMs: number): { positionS: number; remainingS: number | null } {
  if (v.state !== 'playing') return { positionS: v.positionS, remainingS: v.remainingS };
  const { start, end } = span(v);
  const s = Math.max(0, sinceMs) / 1000;
  const positionS = Math.min(Math.max(v.positionS + s * v.speed, start), end);
  const remainingS = v.remainingS === null ? null : Math.max(0, v.remainingS - s);
  return { positionS, remainingS };
}

/** `m:ss.s` (tenths rounded down, so a countdown reaches 0:00.0 only at the end). */
export function clock(seconds: number): string {
  const tenths = Math.floor(Math.max(0, seconds) * 10 + 1e-6);
  const m = Math.floor(tenths / 600);
  const rest = (tenths % 600) / 10;
  return `${m}:${rest < 10 ? '0' : ''}${rest.toFixed(1)}`;
}

/** The share of the span at `positionS`, 0..1. */
export function share(v: ClipView, positionS: number): number {
  const { start, end } = span(v);
  return end > start ? Math.min(Math.max((positionS - start) / (end - start), 0), 1) : 0;
}
