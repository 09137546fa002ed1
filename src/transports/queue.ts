// The backlog of a transport's requests: applied one after another in arrival order, so a burst of messages acts
// as it was sent, and bounded, so a flood queues only so much work (past it a message is dropped and counted).
export class SerialQueue {
  private tail: Promise<void> = Promise.resolve();
  private pending = 0;

  constructor(
    /** Waiting work past which `push` refuses. */
    private readonly max: number,
    private readonly failed: (err: unknown) => void,
  ) {}

  /** Queues work behind all that is queued; false, and nothing queued, while more than `max` wait. */
  push(work: () => Promise<void>): boolean {
    if (this.pending > this.max) return false;
    this.pending++;
    this.tail = this.tail
      .then(() => work())
      .catch(this.failed)
      .finally(() => {
        this.pending--;
      });
    return true;
  }

  /** Queues work that is never dropped (it is rare and must apply), its failure left unlogged. */
  always(work: () => Promise<void>): void {
    this.tail = this.tail.then(() => work()).catch(() => undefined);
  }
}
