// Compiles every catalog program ahead of use (so a file that does not compile is known at load) and keeps a
// spare instance of the most recently used types, up to a limit, so adding an effect or switching to a generator
// takes a ready program instead of stalling the frame loop on a compile, and a large folder costs bounded memory.
import type { IsfDescriptor } from '../../src/shared/isf-types.js';
import { IsfProgram, IsfCompileError } from './isf-program.js';
import type { GL, Quad } from './gl-util.js';

interface Entry {
  desc: IsfDescriptor;
  signature: string;
  spare: IsfProgram | null;
  error: string | null;
  /** When the type was last taken (a tick of this pool); spares of the least recent go first. */
  used: number;
}

/** A catalog program that does not load or compile: the message names the `.fs` file and its line. */
export class ProgramLoadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProgramLoadError';
  }
}

/** `<file name> line <n>: <GL message>` for a compile log whose first error carries a line number. */
export function describeLoadError(desc: IsfDescriptor, log: string): string {
  const name = desc.file.slice(Math.max(desc.file.lastIndexOf('/'), desc.file.lastIndexOf(':')) + 1);
  const line = /(?:ERROR|WARNING): \d+:(\d+):/.exec(log)?.[1];
  return `${name}${line !== undefined ? ` line ${line}` : ''}: ${log}`;
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
  private tick = 0;

  constructor(
    private readonly gl: GL,
    private readonly quad: Quad,
    private width: number,
    private height: number,
    /** Spares kept at most; a type beyond it compiles when taken. */
    readonly limit = Number.POSITIVE_INFINITY,
  ) {}

  /** Spare programs held now. */
  cached(): number {
    let n = 0;
    for (const e of this.entries.values()) if (e.spare) n++;
    return n;
  }

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
      const entry: Entry = { desc, signature, spare: null, error: null, used: old?.used ?? 0 };
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

  /** A ready program for `desc` (the spare, refilled later by `refill`); throws ProgramLoadError when it cannot compile. */
  take(desc: IsfDescriptor): IsfProgram {
    const key = keyOf(desc);
    const entry = this.entries.get(key);
    if (entry && entry.signature === signatureOf(desc)) {
      if (entry.error !== null) throw new ProgramLoadError(entry.error);
      entry.used = ++this.tick;
      this.refills.add(key);
      const spare = entry.spare;
      if (spare) {
        entry.spare = null;
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
    this.trim(entry);
  }

  /** Drops the least recently used spares (never `keep`'s) until the pool is within its limit. */
  private trim(keep: Entry): void {
    let over = this.cached() - this.limit;
    while (over > 0) {
      let oldest: Entry | null = null;
      for (const e of this.entries.values()) if (e.spare && e !== keep && (!oldest || e.used < oldest.used)) oldest = e;
      if (!oldest) return;
      oldest.spare!.destroy();
      oldest.spare = null;
      over--;
    }
  }

  private compile(desc: IsfDescriptor): IsfProgram {
    try {
      return IsfProgram.create(this.gl, desc, this.width, this.height, this.quad);
    } catch (err) {
      if (err instanceof IsfCompileError) throw new ProgramLoadError(describeLoadError(desc, err.log));
      throw new ProgramLoadError(describeLoadError(desc, (err as Error).message));
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
