// Places for event sockets still waiting to authenticate. A few per remote address and a fixed number in all;
// when they are full a newcomer takes the place of an old waiting socket rather than being turned away, so a
// flood of sockets that never authenticate cannot lock out a client that authenticates with its first message.

export interface Waiting {
  address: string;
}

export class PendingPlaces<T extends Waiting> {
  /** Insertion order is age: the first entry is the oldest. */
  private readonly waiting = new Set<T>();

  constructor(
    private readonly perAddress: number,
    private readonly total: number,
  ) {}

  get size(): number {
    return this.waiting.size;
  }

  /**
   * Takes `c` in and returns the socket it displaced, if any (the caller closes it): the oldest of its own
   * address past that address's share, else, when every place is taken, the oldest of the address holding the
   * most places, so one busy address pays for its own flood before a quiet one loses anything.
   */
  admit(c: T): T | null {
    let victim: T | null = null;
    const counts = new Map<string, number>();
    for (const w of this.waiting) counts.set(w.address, (counts.get(w.address) ?? 0) + 1);
    if ((counts.get(c.address) ?? 0) >= this.perAddress) {
      victim = this.oldestOf(c.address);
    } else if (this.waiting.size >= this.total) {
      let busiest = '';
      let most = 0;
      for (const w of this.waiting) {
        const n = counts.get(w.address)!;
        if (n > most) [busiest, most] = [w.address, n];
      }
      victim = this.oldestOf(busiest);
    }
    if (victim !== null) this.waiting.delete(victim);
    this.waiting.add(c);
    return victim;
  }

  /** Authenticated or closed: its place is free. */
  leave(c: T): void {
    this.waiting.delete(c);
  }

  private oldestOf(address: string): T | null {
    for (const w of this.waiting) if (w.address === address) return w;
    return null;
  }
}
