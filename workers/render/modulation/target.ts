// The modulated inputs of one target (a chain effect, the program generator): per frame, each modulator's signal
// applied around the input's set value into a values object the program draws with, and the live values reported.
// Objects and arrays are made when the set values or modulators change, not per frame.
import type { IsfInput } from '../../../src/shared/isf-types.js';
import { currentValue } from '../../../src/shared/param-values.js';
import { COLOR_COMPONENTS, type Modulator } from '../../../src/shared/modulation.js';
import { hsvToRgb, rgbToHsv } from './color.js';
import type { ModContext, ModState } from './context.js';
import { move as moveBy, turn } from './move.js';
import { signal, stateFor } from './signal.js';

interface Entry {
  key: string;
  mod: Modulator;
  st: ModState;
  /** -1: the whole input; point2D 0/1; color 0 hue, 1 saturation, 2 brightness. */
  comp: number;
}

interface Run {
  input: IsfInput;
  entries: Entry[];
  /** The applied array of a point2D or color input (owned by `applied`). */
  vec: number[] | null;
}

const num = (v: unknown, d: number): number => (typeof v === 'number' && Number.isFinite(v) ? v : d);

const move = (set: number, lo: number, hi: number, e: Entry, m: number): number => moveBy(set, lo, hi, e.mod.amount, e.mod.amountOf, m);

export class ModTarget {
  applied: Record<string, unknown> = {};
  /** Applied values of the modulated keys at the last frame. */
  readonly live: Record<string, number | boolean> = {};
  private runs: Run[] = [];
  private values: Record<string, unknown> | null = null;
  private mods: Record<string, Modulator> | null = null;
  private readonly states = new Map<string, ModState>();
  private readonly hsv = [0, 0, 0];

  /** Rebuilds what changed since the last frame (new set values, new modulators). */
  sync(inputs: readonly IsfInput[], values: Record<string, unknown>, mods: Record<string, Modulator>): void {
    if (mods !== this.mods) {
      this.mods = mods;
      this.values = null;
      this.runs = [];
      for (const k of Object.keys(this.live)) delete this.live[k];
      for (const [key, mod] of Object.entries(mods)) {
        const dot = key.indexOf('.');
        const name = dot < 0 ? key : key.slice(0, dot);
        const input = inputs.find((i) => i.name === name);
        if (!input) continue;
        const compName = dot < 0 ? '' : key.slice(dot + 1);
        const comp = dot < 0 ? -1 : input.type === 'point2D' ? (compName === 'y' ? 1 : 0) : COLOR_COMPONENTS.indexOf(compName as never);
        // A replaced modulator of the same key keeps its running phase; only its period is taken anew.
        const fresh = stateFor(key, mod);
        const st = this.states.get(key) ?? fresh;
        st.periodBeats = fresh.periodBeats;
        this.states.set(key, st);
        let run = this.runs.find((r) => r.input === input);
        if (!run) this.runs.push((run = { input, entries: [], vec: null }));
        run.entries.push({ key, mod, st, comp });
      }
      for (const k of [...this.states.keys()]) if (!(k in mods)) this.states.delete(k);
    }
    if (values !== this.values) {
      this.values = values;
      this.applied = { ...values };
      for (const r of this.runs) {
        if (r.input.type === 'point2D' || r.input.type === 'color') {
          r.vec = [...((currentValue(r.input, values[r.input.name]) as number[] | null) ?? [0, 0, 0, 1])];
          this.applied[r.input.name] = r.vec;
        }
      }
    }
  }

  get count(): number {
    return this.states.size;
  }

  /** Computes this frame's applied values (frozen: every modulator repeats its last signal). */
  frame(ctx: ModContext, frozen: boolean): void {
    const values = this.values ?? {};
    for (const r of this.runs) {
      const i = r.input;
      const set = currentValue(i, values[i.name]);
      if (i.type === 'point2D' && r.vec && Array.isArray(set)) {
        r.vec[0] = set[0]!;
        r.vec[1] = set[1]!;
        for (const e of r.entries) {
          const lo = num((i.min as number[] | undefined)?.[e.comp], 0);
          const hi = num((i.max as number[] | undefined)?.[e.comp], 1);
          r.vec[e.comp] = move(set[e.comp]!, lo, hi, e, signal(e.mod, e.st, ctx, frozen));
          this.live[e.key] = r.vec[e.comp]!;
        }
      } else if (i.type === 'color' && r.vec && Array.isArray(set)) {
        rgbToHsv(set, this.hsv);
        for (const e of r.entries) {
          const m = signal(e.mod, e.st, ctx, frozen);
          // Hue is a circle: it turns and wraps, with no end to clamp at or headroom to share.
          this.hsv[e.comp] = e.comp === 0 ? turn(this.hsv[0]!, e.mod.amount, m) : move(this.hsv[e.comp]!, 0, 1, e, m);
          this.live[e.key] = this.hsv[e.comp]!;
        }
        hsvToRgb(this.hsv, r.vec);
        r.vec[3] = set[3] ?? 1;
      } else {
        const e = r.entries[0];
        if (!e) continue;
        const m = signal(e.mod, e.st, ctx, frozen);
        const out = applyScalar(i, set, e, m);
        this.applied[i.name] = out;
        this.live[e.key] = out;
      }
    }
  }
}

/** float: moved in MIN..MAX; long: steps through its VALUES (or MIN..MAX) by rounding; bool: above half the range. */
function applyScalar(i: IsfInput, set: unknown, e: Entry, m: number): number | boolean {
  if (i.type === 'bool') return move(set === true ? 1 : 0, 0, 1, e, m) > 0.5;
  if (i.type === 'long' && i.values && i.values.length > 0) {
    const n = i.values.length;
    const at = Math.max(0, i.values.indexOf(num(set, i.values[0]!)));
    return i.values[Math.round(move(at, 0, n - 1, e, m))]!;
  }
  const lo = num(i.min, 0);
  const hi = num(i.max, 1);
  const v = move(num(set, lo), lo, hi, e, m);
  return i.type === 'long' ? Math.round(v) : v;
}
