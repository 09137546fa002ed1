// The sACN sources of the one universe vjd listens to, tracked by CID as E1.31 asks of a receiver: each source's
// sequence is checked on its own, the highest priority holds the universe, and a source leaves when it ends its
// stream or stays silent for the loss time. At equal priority the source heard first keeps the universe rather
// than merging: the personality's channels are commands (a source, a scene, a seek), which have no "highest".
import { DMX_LIMITS } from '../limits.js';
import type { SacnSourceFields } from './wire.js';

/** What GET /dmx shows of one source. */
export interface SacnSourceView {
  cid: string;
  name: string;
  /** Address of its latest packet. */
  address: string;
  priority: number;
  /** Whether its frames are the ones applied. */
  active: boolean;
}

interface Source extends Omit<SacnSourceView, 'active'> {
  sequence: number;
  seenAt: number;
  /** Arrival order: the tie-break at equal priority. */
  order: number;
  slots: Buffer;
}

/** What one packet or one expiry did: slots to apply (a new or changed winner), and whether no source is left. */
export interface SourcesOutcome {
  slots: Buffer | null;
  /** The last source left (signal loss). */
  empty: boolean;
  /** The packet did not count: out of sequence, over the limit, or the end of a stream never seen. */
  dropped: 'sequence' | 'ignored' | 'unknown' | null;
}

const NOTHING: SourcesOutcome = { slots: null, empty: false, dropped: null };

/** E1.31's rule: a sequence behind the last by fewer than this (or equal to it) is a late packet. */
const SEQUENCE_WINDOW = 20;

/** Signed 8-bit difference, so the count wraps from 255 to 0 without looking late. */
const sequenceStep = (next: number, last: number): number => (((next - last) & 0xff) << 24) >> 24;

export class SacnSources {
  private readonly sources = new Map<string, Source>();
  private winner: Source | null = null;
  private order = 0;
  readonly counts = { outOfSequence: 0, sourcesIgnored: 0 };
  /** Moves when a source comes, goes or takes over (GET /dmx's memo key). */
  version = 0;

  get size(): number {
    return this.sources.size;
  }

  view(): SacnSourceView[] {
    return [...this.sources.values()].map((s) => ({
      cid: s.cid,
      name: s.name,
      address: s.address,
      priority: s.priority,
      active: s === this.winner,
    }));
  }

  /** One data packet of the universe; `slots` is copied when kept. Bounded work: one map lookup and a pass over the sources. */
  take(p: SacnSourceFields & { terminated: boolean; slots: Buffer }, address: string, now: number): SourcesOutcome {
    let s = this.sources.get(p.cid);
    if (s) {
      const step = sequenceStep(p.sequence, s.sequence);
      if (step <= 0 && step > -SEQUENCE_WINDOW) {
        this.counts.outOfSequence++;
        return { ...NOTHING, dropped: 'sequence' };
      }
      s.sequence = p.sequence;
    } else {
      // The end of a stream vjd never heard changes nothing.
      if (p.terminated) return { ...NOTHING, dropped: 'unknown' };
      if (this.sources.size >= DMX_LIMITS.sacnSourcesMax) {
        this.counts.sourcesIgnored++;
        return { ...NOTHING, dropped: 'ignored' };
      }
      s = { cid: p.cid, name: '', address, priority: 0, sequence: p.sequence, seenAt: now, order: this.order++, slots: p.slots };
      this.sources.set(p.cid, s);
      this.version++;
    }
    // A terminated packet's slots are to be ignored: the source leaves at once.
    if (p.terminated) return this.remove([s]);
    if (s.priority !== p.priority) this.version++;
    s.name = p.name;
    s.address = address;
    s.priority = p.priority;
    s.seenAt = now;
    s.slots = Buffer.from(p.slots);
    const before = this.winner;
    this.elect();
    return this.winner === s || this.winner !== before ? { ...NOTHING, slots: this.winner!.slots } : NOTHING;
  }

  /** Sources silent for `lossMs` leave; the next in line takes over. */
  expire(now: number, lossMs: number): SourcesOutcome {
    const gone = [...this.sources.values()].filter((s) => now - s.seenAt >= lossMs);
    return gone.length === 0 ? NOTHING : this.remove(gone);
  }

  private remove(gone: Source[]): SourcesOutcome {
    for (const s of gone) this.sources.delete(s.cid);
    this.version++;
    const before = this.winner;
    this.elect();
    if (this.winner === null) return { ...NOTHING, empty: true };
    return this.winner !== before ? { ...NOTHING, slots: this.winner.slots } : NOTHING;
  }

  /** Highest priority; at equal priority the current holder stays, else the earliest source. */
  private elect(): void {
    let best: Source | null = null;
    for (const s of this.sources.values()) {
      if (best === null || s.priority > best.priority || (s.priority === best.priority && s.order < best.order)) best = s;
    }
    const holder = this.winner !== null && this.sources.has(this.winner.cid) ? this.winner : null;
    const next = holder !== null && best !== null && holder.priority === best.priority ? holder : best;
    if (next !== this.winner) this.version++;
    this.winner = next;
  }
}
