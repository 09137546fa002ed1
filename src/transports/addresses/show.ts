// The show's entries of the OSC address table: feedback only (the show is joined in the config, not from a desk), sent
// from the `show` topic (GET /show) so a desk can light a lamp when the broker drops or a box goes missing.
import type { OscMessage } from './args.js';
import type { OscEntry } from './entry.js';

const feedback = (address: string, type: 'i' | 's', does: string): OscEntry => ({
  address,
  types: type,
  does: `feedback only: ${does}`,
  query: { type, access: 1 },
});

export const SHOW_TABLE: readonly OscEntry[] = [
  feedback('/vjd/show/connected', 'i', '1 while the show link is connected to its broker, else 0'),
  feedback('/vjd/show/boxes/online', 'i', 'how many of the show’s boxes (this one included) are online'),
  feedback('/vjd/show/leader', 's', 'the name of the show’s leader box; "" while none is known'),
  feedback('/vjd/show/scheduled', 'i', 'how many operations wait for their instant (`at`)'),
];

type Box = { box?: unknown; online?: unknown; leader?: unknown };

/** The leader: this box when it leads, else an online box whose state says it leads. */
function leaderOf(d: Record<string, unknown>, boxes: Box[]): string {
  if (d.leader === true && typeof d.box === 'string') return d.box;
  const lead = boxes.find((b) => b.leader === true && b.online === true && typeof b.box === 'string');
  return lead ? String(lead.box) : '';
}

/** Feedback of the `show` topic; none without a show (a box that runs alone has nothing to light). */
export function showFeedback(d: Record<string, unknown>): OscMessage[] {
  if (d.enabled !== true) return [];
  const boxes = Array.isArray(d.boxes) ? (d.boxes as Box[]).filter((b) => b !== null && typeof b === 'object') : [];
  const broker = d.broker as { connected?: unknown } | null | undefined;
  const waiting = (d.scheduled as { waiting?: unknown } | null | undefined)?.waiting;
  return [
    { address: '/vjd/show/connected', args: [{ type: 'i', value: broker?.connected === true ? 1 : 0 }] },
    { address: '/vjd/show/boxes/online', args: [{ type: 'i', value: boxes.filter((b) => b.online === true).length }] },
    { address: '/vjd/show/leader', args: [{ type: 's', value: leaderOf(d, boxes) }] },
    { address: '/vjd/show/scheduled', args: [{ type: 'i', value: Array.isArray(waiting) ? waiting.length : 0 }] },
  ];
}
