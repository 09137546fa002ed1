// Compiles every catalog program ahead of use and keeps one spare instance per type, so adding an effect or
// switching to a generator takes a ready program instead of stalling the frame loop on a compile.
import type { IsfDescriptor } from '../../src/shared/isf-types.js';
import { IsfProgram, IsfCompileError } from './isf-program.js';
import type { GL, Quad } from './gl-util.js';

interface Entry {
  desc: IsfDescriptor;
  signature: string;
  spare: IsfProgram | null;
  error: string | null;
}

export interface CompileResult {
  type: string;
  kind: 'effect' | 'generator';
  ok: boolean;
  error?: string;
}

/** Programs compiled: `ahead` at catalog load and between frames, `onDemand` when asked for with no spare ready. */
export interface CompileCounts {
  ahead: number;
  onDemand: number;
}

export class ProgramPool {
  private readonly entries = new Map<string, Entry>();
  private readonly refills = new Set<string>();
  /** An on-demand compile stalls the frame loop for the compile's length: a spare missing when it was needed. */
  readonly compiles: CompileCounts = { ahead: 0, onDemand: 0 };

  constructor(
    private readonly gl: GL,
    private readonly quad: Quad,
    private width: number,
    private height: number,
  ) {}

  /** Replaces the catalog: compiles new or changed programs now, drops removed ones. Returns the compile results of what changed. */
  setCatalog(descs: readonly IsfDescriptor[]): CompileResult[] {
    const results: CompileResult[] = [];
    const seen = new Set<string>();
    for (const desc of descs) {
      const key = keyOf(desc);
      seen.add(key);
      const signature = signatureOf(desc);
      const old = this.entries.get(key);
      if (old && old.signature === signature) {
        old.desc = desc;
        continue;
      }
      old?.spare?.destroy();
      const entry: Entry = { desc, signature, spare: null, error: null };
      this.entries.set(key, entry);
      this.fill(entry);
      results.push(
        entry.error === null
          ? { type: desc.type, kind: desc.kind, ok: true }
          : { type: desc.type, kind: desc.kind, ok: false, error: entry.error },
      );
    }
    for (const [key, entry] of this.entries) {
      if (!seen.has(key)) {
        entry.spare?.destroy();
        this.entries.delete(key);
      }
    }
    return results;
  }

  /** The compile error of a type, or null when it compiled. */
  errorOf(desc: IsfDescriptor): string | null {
    return this.entries.get(keyOf(desc))?.error ?? null;
  }

  /** A ready program for `desc` (the spare, refilled later by `refill`); throws Error(compile log) when it cannot compile. */
  take(desc: IsfDescriptor): IsfProgram {
    const key = keyOf(desc);
    const entry = this.entries.get(key);
    if (entry && entry.signature === signatureOf(desc)) {
      if (entry.error !== null) throw new Error(entry.error);
      const spare = entry.spare;
      if (spare) {
        entry.spare = null;
        this.refills.add(key);
        return spare;
      }
    }
    this.compiles.onDemand++;
    return this.compile(desc);
  }

  /** How many used spares wait to be compiled (see refill). */
  pending(): number {
    return this.refills.size;
  }

  /** Compiles one missing spare; called when the frame loop has time. Returns true while more are waiting. */
  refill(): boolean {
    const next = this.refills.values().next();
    if (next.done) return false;
    this.refills.delete(next.value);
    const entry = this.entries.get(next.value);
    if (entry && !entry.spare && entry.error === null) this.fill(entry);
    return this.refills.size > 0;
  }

  resize(width: number, height: number): void {
    this.width = width;
    this.height = height;
    for (const e of this.entries.values()) e.spare?.resize(width, height);
  }

  destroy(): void {
    for (const e of this.entries.values()) e.spare?.destroy();
    this.entries.clear();
  }

  private fill(entry: Entry): void {
    this.compiles.ahead++;
    try {
      entry.spare = this.compile(entry.desc);
      entry.error = null;
    } catch (err) {
      entry.spare = null;
      entry.error = (err as Error).message;
    }
  }

  private compile(desc: IsfDescriptor): IsfProgram {
    try {
      return IsfProgram.create(this.gl, desc, this.width, this.height, this.quad);
    } catch (err) {
      if (err instanceof IsfCompileError) throw new Error(err.log);
      throw err;
    }
  }
}

function keyOf(desc: IsfDescriptor): string {
  return `${desc.kind}:${desc.type}`;
}

function signatureOf(desc: IsfDescriptor): string {
  // IMPORTED: a new decode (serial) recompiles the spare, whose creation re-uploads the shared texture.
  return JSON.stringify([desc.fragment, desc.vertex ?? '', desc.passes, desc.inputs, desc.imported ?? null]);
}
