// The compiled one-pass compositions, by mode sequence: the least recently drawn go first past the limit, a sequence
// that did not compile is remembered (it draws pass by pass) until the blend files change.
import type { GL, Quad } from '../gl-util.js';
import type { BlendCode } from './blend-source.js';
import { OnePassProgram } from './one-pass.js';

// One draw may use a program per chunk of layers: those of one draw are never evicted by each other.
const MIN_KEPT = 4;

export class OnePassCache {
  private readonly programs = new Map<string, OnePassProgram>();
  private readonly failed = new Set<string>();
  /** Sequences asked for ahead of use, compiled one at a time by `compileOne`. */
  private readonly queued = new Map<string, readonly string[]>();
  /** Compiles made while a frame waited for them (none when `prepare` ran ahead). */
  onDemand = 0;

  constructor(
    private readonly gl: GL,
    private readonly quad: Quad,
    /** Programs kept at most. */
    private readonly limit: number,
    /** A mode's functions for the one-pass form, or null when the mode cannot go into it. */
    private readonly code: (mode: string) => BlendCode | null,
  ) {}

  /** The program composing `modes`, compiled now if needed; null when some mode cannot be composed in one pass. */
  get(modes: readonly string[]): OnePassProgram | null {
    const key = modes.join(',');
    const hit = this.programs.get(key);
    if (hit) {
      // Re-inserted: Map order is the recency order.
      this.programs.delete(key);
      this.programs.set(key, hit);
      return hit;
    }
    if (this.failed.has(key)) return null;
    this.onDemand++;
    return this.compile(key, modes);
  }

  /** Queues `modes` to be compiled ahead by `compileOne` (the idle time between frames). */
  prepare(modes: readonly string[]): void {
    const key = modes.join(',');
    if (!this.programs.has(key) && !this.failed.has(key)) this.queued.set(key, modes.slice());
  }

  /** Compiles one queued sequence; true while more wait. */
  compileOne(): boolean {
    const next = this.queued.entries().next();
    if (next.done) return false;
    const [key, modes] = next.value;
    this.queued.delete(key);
    if (!this.programs.has(key) && !this.failed.has(key)) this.compile(key, modes);
    return this.queued.size > 0;
  }

  /** Programs held now. */
  size(): number {
    return this.programs.size;
  }

  /** Drops every program and failure (the blend files changed). */
  clear(): void {
    for (const p of this.programs.values()) p.destroy();
    this.programs.clear();
    this.failed.clear();
    this.queued.clear();
  }

  private compile(key: string, modes: readonly string[]): OnePassProgram | null {
    const code = new Map<string, BlendCode>();
    for (const m of modes) {
      const c = this.code(m);
      if (!c) {
        this.failed.add(key);
        return null;
      }
      code.set(m, c);
    }
    let p: OnePassProgram;
    try {
      p = OnePassProgram.create(this.gl, this.quad, modes, code);
    } catch {
      this.failed.add(key);
      return null;
    }
    this.programs.set(key, p);
    while (this.programs.size > Math.max(MIN_KEPT, this.limit)) {
      const [oldest, old] = this.programs.entries().next().value as [string, OnePassProgram];
      this.programs.delete(oldest);
      old.destroy();
    }
    return p;
  }
}
