// The show panel's words: one line each for the broker, the beat clock and a box, from GET /show (the `show` topic).
import type { Got } from '../api-shapes';

export type Show = Got<'/show'>;
export type Box = Show['boxes'][number];
export type Waiting = Show['scheduled']['waiting'][number];
export type Recent = Show['scheduled']['recent'][number];

/** A wall-clock time as the operator's locale writes it; the instant itself when it does not read. */
export function clock(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleTimeString();
}

/** The broker connection: connected, or why not (the last error stays after a reconnect, so only shown while down). */
export function brokerLine(b: Show['broker']): { text: string; tone: 'ok' | 'warn' | 'error' } {
  if (b === null) return { text: 'No broker', tone: 'warn' };
  if (b.connected) return { text: `Connected to ${b.url}`, tone: 'ok' };
  if (b.lastError !== null) return { text: `Not connected to ${b.url}: ${b.lastError}`, tone: 'error' };
  return { text: `Connecting to ${b.url} …`, tone: 'warn' };
}

/** Whom the beat clock follows (a member) or that it leads. */
export function clockLine(c: Show['clock']): string {
  if (c === null) return '';
  if (c.role === 'leader') return `Beat clock: this box leads (${c.count} grids sent)`;
  return c.following === null ? 'Beat clock: no leader heard yet' : `Beat clock: following ${c.following}`;
}

/** What a box last said of itself: fps, scene, tempo and when it was heard. */
export function boxMeta(b: Box): string {
  const parts = [
    b.fps === null ? 'fps –' : `${Math.round(b.fps)} fps`,
    b.scene === null ? 'no scene' : `scene ${b.scene.name}`,
    b.tempo === null ? 'no tempo' : `${Math.round(b.tempo.bpm * 10) / 10} BPM`,
    `seen ${clock(b.lastSeen)}`,
  ];
  return parts.join(' · ');
}

/** How an operation that ran went: its state, and how many frames after its instant it landed. */
export function recentMeta(r: Recent): string {
  const late = r.lateFrames === null ? '' : r.lateFrames === 0 ? ', on its frame' : `, ${r.lateFrames} frames late`;
  return `${r.state}${late}${r.error ? ` (${r.error})` : ''}`;
}
