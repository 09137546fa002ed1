// Run control of the output worker: the latest wanted run of each output (a spec, or none) and one serial loop
// per output that brings its consumer there. Starts and stops of an output apply strictly one after another,
// and a stop that arrives while a start still waits (for the previous ffmpeg to let go of its target) wins.
import type { OutputCounters, OutputSpec } from '../../src/shared/protocol/output.js';

/** One run of an output: its own consumer, or its place in a shared stream encoder. */
export interface Consumer {
  readonly counters: OutputCounters;
  start(): void;
  stop(): Promise<void>;
}

interface Run {
  gen: number;
  consumer: Consumer;
}

export interface SlotDeps {
  /** Resolves once ffmpeg can be started (the parent-death wrapper is known). */
  ready: Promise<unknown>;
  create(id: string, gen: number, spec: OutputSpec): Consumer;
  /** A run is over: its final counters, so the main thread keeps the totals. */
  ended(id: string, gen: number, consumer: Consumer): void;
  /** Wanted runs up to `gen` were never started (a later stop came first): the output is stopped. */
  skipped(id: string, gen: number): void;
  /** A start or stop threw: the output is left as it is until the next start or stop of it. */
  failed(id: string, err: Error): void;
}

export class OutputSlots {
  private readonly wanted = new Map<string, { gen: number; spec: OutputSpec } | null>();
  private readonly runs = new Map<string, Run>();
  private readonly loops = new Map<string, Promise<void>>();
  /** The newest gen asked for and the newest gen that ran, per output. */
  private readonly asked = new Map<string, number>();
  private readonly ran = new Map<string, number>();
  private closed = false;

  constructor(private readonly deps: SlotDeps) {}

  start(id: string, gen: number, spec: OutputSpec): void {
    if (this.closed) return;
    this.wanted.set(id, { gen, spec });
    this.asked.set(id, gen);
    this.kick(id);
  }

  stop(id: string): void {
    this.wanted.set(id, null);
    this.kick(id);
  }

  /** Stops every output and takes no more starts; resolves when every ffmpeg has exited. */
  async stopAll(): Promise<void> {
    this.closed = true;
    for (const id of new Set([...this.wanted.keys(), ...this.runs.keys()])) this.stop(id);
    await Promise.all([...this.loops.values()]);
  }

  /** The consumers running now, with the gen of their run. */
  active(): Array<{ id: string; gen: number; consumer: Consumer }> {
    return [...this.runs].map(([id, r]) => ({ id, gen: r.gen, consumer: r.consumer }));
  }

  private kick(id: string): void {
    if (this.loops.has(id)) return;
    this.loops.set(
      id,
      this.settle(id).catch((err: Error) => {
        this.loops.delete(id);
        this.deps.failed(id, err);
      }),
    );
  }

  /** Stops a run that is no longer wanted, starts the wanted one; again until nothing changed meanwhile. */
  private async settle(id: string): Promise<void> {
    for (;;) {
      const want = this.wanted.get(id) ?? null;
      const run = this.runs.get(id);
      if (run && want?.gen !== run.gen) {
        this.runs.delete(id);
        this.deps.ended(id, run.gen, run.consumer);
        await run.consumer.stop();
        continue;
      }
      if (!run && want) {
        await this.deps.ready;
        if (this.wanted.get(id) !== want) continue;
        const consumer = this.deps.create(id, want.gen, want.spec);
        this.runs.set(id, { gen: want.gen, consumer });
        this.ran.set(id, want.gen);
        consumer.start();
        continue;
      }
      break;
    }
    // Decided without an await since the last look: no message can have changed the wanted run in between.
    this.loops.delete(id);
    if (this.runs.has(id)) return;
    this.wanted.delete(id);
    const asked = this.asked.get(id);
    if (asked !== undefined && asked !== this.ran.get(id)) this.deps.skipped(id, asked);
  }
}
