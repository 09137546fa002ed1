// Turns the enabled chain into render steps: runs of fusable effects drawn as one pass each once their fused
// program is compiled, every other effect (and every run still compiling) drawn by its own program. Fused programs
// compile in the frame loop's idle time into a cache keyed by the run's types, so a chain edit never waits for a
// compile and going back to an earlier chain is instant; the switch happens when a frame starts. With a compile
// helper, each new shader is compiled in another process first, so those idle-time steps are Mesa cache hits.
import type { IsfDescriptor } from '../../../src/shared/isf-types.js';
import type { GL, Quad } from '../gl-util.js';
import type { IsfFrame, IsfProgram } from '../isf-program.js';
import { analyze } from './analyze.js';
import { clockUniformsUsed, fusedFragment } from './codegen.js';
import type { CompileHelper } from './compile-helper.js';
import { FusedProgram } from './fused-program.js';
import { WarmUp } from './warm-up.js';

/** The part of a chain slot fusion needs; `inputs` is read every frame, so parameter changes apply at once. */
export interface FuseSlot {
  readonly inputs: Record<string, unknown>;
  /** The values of this frame when modulators move some of them (modulated values are plain uniform values). */
  readonly applied?: Record<string, unknown> | null;
  readonly instance: { readonly program: IsfProgram };
}

export interface FuseStep {
  render(frame: IsfFrame): void;
  /**
   * The step reads its input only at each fragment's own pixel centre, where NEAREST sampling gives exactly what
   * LINEAR gives, at about half the sampling cost on llvmpipe (2-3 ms of a 5 ms copy pass at 1280×720); the
   * engine sets the input's filter from it.
   */
  readonly ownPixel: boolean;
}

/** Whether an effect reads its input only at its own pixel (a fusable effect whose one read is `pixel`). */
export function readsOwnPixel(desc: IsfDescriptor): boolean {
  const a = analyze(desc);
  return a.fusable && a.read === 'pixel';
}

export interface FuseInfo {
  /** Effect passes per frame (a fused run is one; a multi-pass effect counts each of its passes). */
  passes: number;
  /** The runs currently drawn fused, each as its effect types in chain order. */
  fusedRuns: string[][];
}

/** At most this many effects per fused program (shader size; GPU drivers have instruction limits too). */
export const MAX_RUN = 12;
/** Uniform vectors the shared ISF uniforms take (PALETTE[8] and the scalars) before the effects' own. */
const PRELUDE_VECTORS = 16;
/** Compile work waits at most this long for a free half frame before it takes a frame slot. */
const STARVED_MS = 500;
/** Fused programs kept compiled when the worker is not told (the current chain's and recent ones). */
const CACHE_SIZE = 32;

interface Entry {
  key: string;
  descs: IsfDescriptor[];
  /** The generated shader (made when the entry is, so the compile helper can take it first). */
  fragment: string;
  program: FusedProgram | null;
  /** Linked but not drawn yet: the first draw is where Mesa generates code, so it is done off the frame path too. */
  warm: boolean;
  error: string | null;
  used: number;
}

/** Runs [from, to) of `descs` worth fusing (two or more effects): each starts anywhere, continues with pixel reads. */
export function fusableRuns(descs: readonly IsfDescriptor[], maxUniformVectors = 1024): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  let i = 0;
  while (i < descs.length) {
    const a = analyze(descs[i]!);
    if (!a.fusable) {
      i++;
      continue;
    }
    let vectors = PRELUDE_VECTORS + uniformCount(descs[i]!);
    let j = i + 1;
    for (; j < descs.length && j - i < MAX_RUN; j++) {
      const b = analyze(descs[j]!);
      if (!b.fusable || b.read !== 'pixel') break;
      vectors += uniformCount(descs[j]!);
      if (vectors > maxUniformVectors) break;
    }
    if (j - i >= 2) runs.push([i, j]);
    i = j;
  }
  return runs;
}

// Inputs plus the member's own clock built-ins (only fusable descriptors are counted).
const uniformCount = (d: IsfDescriptor): number => {
  const a = analyze(d);
  return d.inputs.filter((x) => x.type !== 'image').length + (a.fusable ? clockUniformsUsed(a).length : 0);
};

const descIds = new WeakMap<IsfDescriptor, number>();
let nextDescId = 1;
function descId(d: IsfDescriptor): number {
  let id = descIds.get(d);
  if (id === undefined) descIds.set(d, (id = nextDescId++));
  return id;
}

export class Fuser {
  /** Called once per run whose fused program fails to compile (that run then stays unfused). */
  onLog: (msg: string, fields: Record<string, unknown>) => void = () => {};
  private readonly cache = new Map<string, Entry>();
  private readonly queue: string[] = [];
  private planned: readonly FuseSlot[] | null = null;
  private plannedGen = -1;
  private generation = 0;
  private steps: FuseStep[] = [];
  private info: FuseInfo = { passes: 0, fusedRuns: [] };
  private readonly warm: WarmUp;
  private readonly maxVectors: number;
  private clock = 0;
  private waitingSince = -1;

  constructor(
    private readonly gl: GL,
    private readonly quad: Quad,
    private width: number,
    private height: number,
    private enabled: boolean,
    /** Compiles each new fused shader in another process first, so the compile here is a cache hit. */
    private readonly helper: CompileHelper | null = null,
    private readonly cacheSize = CACHE_SIZE,
  ) {
    this.warm = new WarmUp(gl, width, height);
    this.maxVectors = Number(gl.getParameter(0x8dfd /* MAX_FRAGMENT_UNIFORM_VECTORS */)) || 16;
  }

  /** The steps for the enabled chain; rebuilt only when the chain or a compile changed (no per-frame work). */
  plan(slots: readonly FuseSlot[]): readonly FuseStep[] {
    if (slots === this.planned && this.plannedGen === this.generation) return this.steps;
    this.planned = slots;
    this.plannedGen = this.generation;
    const descs = slots.map((s) => s.instance.program.desc);
    const runs = this.enabled ? fusableRuns(descs, this.maxVectors) : [];
    const steps: FuseStep[] = [];
    const info: FuseInfo = { passes: 0, fusedRuns: [] };
    let i = 0;
    for (const [from, to] of runs) {
      for (; i < from; i++) steps.push(this.single(slots[i]!, info));
      const entry = this.entry(descs.slice(from, to));
      if (entry.program && entry.warm) {
        const program = entry.program;
        const run = slots.slice(from, to);
        const { width, height } = this;
        steps.push({ render: (frame) => program.render(frame, run, width, height), ownPixel: readsOwnPixel(entry.descs[0]!) });
        info.passes++;
        info.fusedRuns.push(entry.descs.map((d) => d.type));
      } else for (let k = from; k < to; k++) steps.push(this.single(slots[k]!, info));
      i = to;
    }
    for (; i < slots.length; i++) steps.push(this.single(slots[i]!, info));
    this.steps = steps;
    this.info = info;
    return steps;
  }

  /** The render size changed: the next plan draws the fused runs at the new size. */
  resize(width: number, height: number): void {
    this.width = width;
    this.height = height;
    this.generation++;
  }

  stats(): FuseInfo {
    return this.info;
  }

  /** Fused programs compiled and held now, and the most kept. */
  programs(): { cached: number; limit: number } {
    let cached = 0;
    for (const e of this.cache.values()) if (e.program) cached++;
    return { cached, limit: this.cacheSize };
  }

  /**
   * Called after every frame with the time left before the next one. A compile step runs when half a period is
   * free, or, on a box whose frames leave no such slot (where fusing helps most), once the work has waited
   * STARVED_MS: then it costs one late frame instead of leaving the chain unfused for good.
   */
  idle(freeMs: number, periodMs: number): void {
    if (this.queue.length === 0) {
      this.waitingSince = -1;
      return;
    }
    const now = performance.now();
    if (this.waitingSince < 0) this.waitingSince = now;
    if (freeMs > periodMs * 0.5 || now - this.waitingSince > STARVED_MS) {
      this.compileNext();
      this.waitingSince = now;
    }
  }

  /**
   * One step of compile work (link, or the first draw that makes Mesa generate code). Returns true while more
   * work is waiting.
   */
  compileNext(): boolean {
    const key = this.queue[0];
    if (key === undefined) return false;
    const e = this.cache.get(key);
    if (!e || e.error !== null || (e.program && e.warm)) {
      this.queue.shift();
      return this.queue.length > 0;
    }
    try {
      if (!e.program) {
        e.program = FusedProgram.create(this.gl, this.quad, e.fragment, e.descs);
        return true;
      }
      this.warm.draw(e.program, readsOwnPixel(e.descs[0]!));
      e.warm = true;
      this.queue.shift();
      this.generation++;
    } catch (err) {
      e.program?.destroy();
      e.program = null;
      e.error = (err as Error).message;
      this.queue.shift();
      this.generation++;
      this.onLog('fused effect run does not compile; it renders unfused', { run: e.descs.map((d) => d.type), error: e.error });
    }
    return this.queue.length > 0;
  }

  destroy(): void {
    this.helper?.stop();
    for (const e of this.cache.values()) e.program?.destroy();
    this.cache.clear();
    this.queue.length = 0;
    this.warm.destroy();
  }

  private single(slot: FuseSlot, info: FuseInfo): FuseStep {
    const passes = slot.instance.program.desc.passes;
    info.passes += passes.length + (passes[passes.length - 1]?.target !== undefined ? 1 : 0);
    return {
      render: (frame) => {
        frame.values = slot.applied ?? slot.inputs;
        slot.instance.program.render(frame);
      },
      ownPixel: readsOwnPixel(slot.instance.program.desc),
    };
  }

  private entry(descs: IsfDescriptor[]): Entry {
    const key = descs.map((d) => `${d.type}#${descId(d)}`).join('>');
    let e = this.cache.get(key);
    if (!e) {
      let fragment = '';
      let error: string | null = null;
      try {
        fragment = fusedFragment(
          descs.map((desc) => ({ desc, analysis: analyze(desc) as Extract<ReturnType<typeof analyze>, { fusable: true }> })),
        );
      } catch (err) {
        error = (err as Error).message;
      }
      e = { key, descs, fragment, program: null, warm: false, error, used: ++this.clock };
      const entry = e;
      this.cache.set(key, e);
      this.evict();
      if (error !== null) {
        this.onLog('fused effect run does not compile; it renders unfused', { run: descs.map((d) => d.type), error });
        return e;
      }
      // Compiled here (link, then warm-up draw, in idle time) once the helper is done with it.
      const queue = (): void => {
        if (this.cache.get(key) === entry) this.queue.push(key);
      };
      if (this.helper) this.helper.compile(fragment, readsOwnPixel(descs[0]!), queue);
      else queue();
    }
    e.used = ++this.clock;
    return e;
  }

  /** Drops the least recently planned programs beyond the cache size. */
  private evict(): void {
    while (this.cache.size > this.cacheSize) {
      let oldest: Entry | null = null;
      for (const e of this.cache.values()) if (!oldest || e.used < oldest.used) oldest = e;
      if (!oldest) return;
      oldest.program?.destroy();
      this.cache.delete(oldest.key);
    }
  }
}
