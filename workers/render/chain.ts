// The effects chain owned by the render worker: the state transitions of docs/api.md ("Effect in the chain")
// and the answers of the effects routes. GL work is behind the injected instance factory so the rules test without GL.
import type { IsfDescriptor } from '../../src/shared/isf-types.js';
import type { ChainCommand, ChainEntryWire, ChainItem, ChainReply } from '../../src/shared/protocol/render.js';
import { matchNameIndex } from '../../src/shared/names.js';
import { cleanModulators, componentsOf, modKey, targetProblem, type Modulator } from '../../src/shared/modulation.js';
import { applyValues, firedEvents, inputStates, persistable, resetValues, type ApplyResult } from '../../src/shared/param-values.js';

/** One running effect: its own programs and buffers (two copies of one type never share persistent buffers). */
export interface EffectInstance {
  destroy(): void;
  /** Starts the instance over (its time from 0, its buffers cleared): called when a disabled effect is enabled. */
  restart?(): void;
}

export interface ChainDeps<I extends EffectInstance> {
  /** The installed effect types, in catalog order. */
  catalog(): readonly IsfDescriptor[];
  /** Creates a running instance; throws an Error whose message is the compile log line when the shader fails. */
  instantiate(desc: IsfDescriptor): I;
}

export interface Slot<I extends EffectInstance> {
  desc: IsfDescriptor;
  enabled: boolean;
  presetId: string;
  inputs: Record<string, unknown>;
  /** Modulated inputs (`input` or `input.component`) → modulator; replaced as a whole on every change. */
  modulators: Record<string, Modulator>;
  /** This frame's values with the modulators applied (the modulation stage sets it); null: `inputs` as set. */
  applied: Record<string, unknown> | null;
  instance: I;
}

const byName = (s: { desc: IsfDescriptor }): string => s.desc.name;
const byType = (s: { desc: IsfDescriptor }): string => s.desc.type;

export class Chain<I extends EffectInstance> {
  private slots: Array<Slot<I>> = [];
  version = 0;

  constructor(private readonly deps: ChainDeps<I>) {}

  get length(): number {
    return this.slots.length;
  }

  private enabledCache: { version: number; slots: ReadonlyArray<Slot<I>> } = { version: -1, slots: [] };

  /** Enabled slots in chain order (the render path: rebuilt only when the chain changed, not per frame). */
  enabled(): ReadonlyArray<Slot<I>> {
    if (this.enabledCache.version !== this.version)
      this.enabledCache = { version: this.version, slots: this.slots.filter((s) => s.enabled) };
    return this.enabledCache.slots;
  }

  /** Every slot in chain order (the modulation stage runs disabled effects too, so their live values stay current). */
  all(): ReadonlyArray<Slot<I>> {
    return this.slots;
  }

  items(): ChainItem[] {
    return this.slots.map((s, i) => item(s, i));
  }

  entries(): ChainEntryWire[] {
    return this.slots.map((s) => ({
      type: s.desc.type,
      enabled: s.enabled,
      presetId: s.presetId,
      inputs: persistable(s.desc.inputs, s.inputs),
      ...(Object.keys(s.modulators).length > 0 ? { modulators: s.modulators } : {}),
    }));
  }

  /** Slots with an event fired by the last params command: cleared after the frame that showed it. */
  private firing: Array<Slot<I>> = [];

  /** Called by the renderer after each frame: fired events have had their one frame. */
  endFrame(): void {
    if (this.firing.length === 0) return;
    for (const s of this.firing) {
      const next = { ...s.inputs };
      for (const name of firedEvents(s.desc.inputs, s.inputs)) delete next[name];
      s.inputs = next;
    }
    this.firing = [];
  }

  apply(cmd: ChainCommand): ChainReply {
    switch (cmd.op) {
      case 'add':
        return this.add(cmd);
      case 'remove':
        return this.remove(cmd);
      case 'toggle':
      case 'enabled': {
        const found = this.find(cmd.name, cmd.index);
        if (!found.ok) return found.reply;
        const slot = this.slots[found.at]!;
        const next = cmd.op === 'toggle' ? !slot.enabled : cmd.enabled;
        if (next !== slot.enabled) {
          // Enabling starts the effect as adding it does: shaders that set up state on their first frame do so again.
          if (next) slot.instance.restart?.();
          slot.enabled = next;
          this.version++;
        }
        return { ok: true, item: item(slot, found.at) };
      }
      case 'params':
      case 'reset': {
        const found = this.find(cmd.name, cmd.index);
        if (!found.ok) return found.reply;
        const slot = this.slots[found.at]!;
        const r: ApplyResult =
          cmd.op === 'params'
            ? applyValues(slot.desc.inputs, slot.inputs, cmd.values)
            : resetValues(slot.desc.inputs, slot.inputs, cmd.inputs);
        if (!r.ok)
          return {
            ok: false,
            reason: 'INVALID_REQUEST',
            message: `${slot.desc.name}: ${r.problem.message}; nothing changed`,
            details: r.problem.details,
          };
        // A new object, never an edit in place: the frame being drawn keeps a consistent set of values.
        slot.inputs = r.values;
        if (firedEvents(slot.desc.inputs, slot.inputs).length > 0 && !this.firing.includes(slot)) this.firing.push(slot);
        this.version++;
        return { ok: true, item: item(slot, found.at), inputs: inputStates(slot.desc.inputs, slot.inputs) };
      }
      case 'modulate':
        return this.modulate(cmd);
      case 'move': {
        const found = this.find(cmd.name, cmd.index);
        if (!found.ok) return found.reply;
        if (!Number.isInteger(cmd.to) || cmd.to < 1 || cmd.to > this.slots.length) return this.indexMiss(cmd.to);
        const [slot] = this.slots.splice(found.at, 1);
        this.slots.splice(cmd.to - 1, 0, slot!);
        if (found.at !== cmd.to - 1) this.version++;
        return { ok: true, item: item(slot!, cmd.to - 1), items: this.items() };
      }
    }
  }

  /** An item with its inputs and their values (GET /effects/{index} is answered from snapshots; this is for tests and replies). */
  inputsOf(at: number): ReturnType<typeof inputStates> {
    const s = this.slots[at];
    return s ? inputStates(s.desc.inputs, s.inputs) : [];
  }

  /**
   * Rebuilds the chain from persisted entries (start-up). Entries whose type is gone or whose shader fails
   * are skipped and reported, so one broken file never empties a show.
   */
  restore(entries: readonly ChainEntryWire[], ceiling: number): string[] {
    const problems: string[] = [];
    this.clear();
    for (const e of entries) {
      if (this.slots.length >= ceiling) {
        problems.push(`${e.type}: over the effect ceiling ${ceiling}`);
        continue;
      }
      const desc = this.deps.catalog().find((d) => d.type === e.type);
      if (!desc) {
        problems.push(`${e.type}: not installed`);
        continue;
      }
      try {
        this.slots.push({
          desc,
          enabled: e.enabled,
          presetId: e.presetId,
          inputs: { ...e.inputs },
          modulators: validModulators(desc, e.modulators),
          applied: null,
          instance: this.deps.instantiate(desc),
        });
      } catch (err) {
        problems.push(`${e.type}: ${(err as Error).message}`);
      }
    }
    this.version++;
    return problems;
  }

  /** Swaps the descriptor of running slots when the catalog reloads a type (the caller re-instantiates). */
  forEach(fn: (slot: Slot<I>) => void): void {
    for (const s of this.slots) fn(s);
  }

  clear(): void {
    for (const s of this.slots) s.instance.destroy();
    this.slots = [];
    this.version++;
  }

  private add(cmd: Extract<ChainCommand, { op: 'add' }>): ChainReply {
    const catalog = this.deps.catalog();
    const at = matchNameIndex(catalog, cmd.type, [(d) => d.name, (d) => d.type]);
    if (at < 0) {
      return {
        ok: false,
        reason: 'ITEM_NOT_FOUND',
        message: `no installed effect matches "${clip(cmd.type)}"`,
        details: { requested: cmd.type, available: catalog.map((d) => d.type) },
      };
    }
    const desc = catalog[at]!;
    if (cmd.idempotent) {
      const existing = this.slots.findIndex((s) => s.desc.type === desc.type);
      if (existing >= 0) return { ok: true, item: item(this.slots[existing]!, existing) };
    }
    if (this.slots.length >= cmd.ceiling) {
      return {
        ok: false,
        reason: 'EFFECT_LIMIT_REACHED',
        message: `the chain holds ${this.slots.length} effects, the ceiling of this license tier is ${cmd.ceiling}; nothing added`,
      };
    }
    let instance: I;
    try {
      instance = this.deps.instantiate(desc);
    } catch (err) {
      return { ok: false, reason: 'EFFECT_LOAD_FAILED', message: `${desc.type}: ${(err as Error).message}` };
    }
    const inputs = { ...cmd.inputs };
    const modulators = validModulators(desc, cmd.modulators);
    this.slots.push({ desc, enabled: true, presetId: cmd.presetId, inputs, modulators, applied: null, instance });
    this.version++;
    return { ok: true, item: item(this.slots[this.slots.length - 1]!, this.slots.length - 1) };
  }

  private modulate(cmd: Extract<ChainCommand, { op: 'modulate' }>): ChainReply {
    const found = this.find(cmd.name, cmd.index);
    if (!found.ok) return found.reply;
    const slot = this.slots[found.at]!;
    const input = slot.desc.inputs.find((i) => i.name === cmd.input);
    const problem = input ? targetProblem(input.name, input.type, cmd.component) : `no input is named "${cmd.input.slice(0, 80)}"`;
    if (problem) {
      const available = slot.desc.inputs.filter((i) => componentsOf(i.type) !== null);
      return {
        ok: false,
        reason: 'INVALID_REQUEST',
        message: `${slot.desc.name}: ${problem}; nothing changed`,
        details: { input: cmd.input.slice(0, 80), available: available.map((i) => i.name) },
      };
    }
    const key = modKey(cmd.input, cmd.component);
    const next = { ...slot.modulators };
    if (cmd.modulator === null) delete next[key];
    else next[key] = cmd.modulator;
    slot.modulators = next;
    this.version++;
    return { ok: true, item: item(slot, found.at), inputs: inputStates(slot.desc.inputs, slot.inputs), modulators: next };
  }

  private remove(cmd: Extract<ChainCommand, { op: 'remove' }>): ChainReply {
    let at: number;
    if (cmd.type !== undefined) {
      at = matchNameIndex(this.slots, cmd.type, [byType, byName]);
      if (at < 0) {
        return {
          ok: false,
          reason: 'ITEM_NOT_FOUND',
          message: `no effect of type "${clip(cmd.type)}" is in the chain`,
          details: { requested: cmd.type, available: this.slots.map(byType) },
        };
      }
    } else {
      const index = cmd.index ?? 0;
      if (index < 1 || index > this.slots.length) return this.indexMiss(index);
      at = index - 1;
    }
    const [removed] = this.slots.splice(at, 1);
    removed!.instance.destroy();
    this.version++;
    return { ok: true, item: item(removed!, at) };
  }

  /** `name` wins over `index` (toggle per spec; enabled by the same rule, documented). */
  private find(name: string | undefined, index: number | undefined): { ok: true; at: number } | { ok: false; reply: ChainReply } {
    if (name !== undefined) {
      const at = matchNameIndex(this.slots, name, [byName, byType]);
      if (at >= 0) return { ok: true, at };
      return {
        ok: false,
        reply: {
          ok: false,
          reason: 'ITEM_NOT_FOUND',
          message: `no loaded effect is named "${clip(name)}"`,
          details: { requested: name, available: this.slots.map(byName) },
        },
      };
    }
    const i = index ?? 0;
    if (i < 1 || i > this.slots.length) return { ok: false, reply: this.indexMiss(i) };
    return { ok: true, at: i - 1 };
  }

  private indexMiss(index: number): ChainReply {
    const max = this.slots.length;
    return {
      ok: false,
      reason: 'ITEM_NOT_FOUND',
      message: max === 0 ? `nothing at position ${index}: the chain is empty` : `nothing at position ${index}: positions are 1 to ${max}`,
      details: { requested: index, min: 1, max },
    };
  }
}

function item<I extends EffectInstance>(s: Slot<I>, at: number): ChainItem {
  return { index: at + 1, name: s.desc.name, type: s.desc.type, enabled: s.enabled, presetId: s.presetId };
}

function clip(s: string): string {
  return s.length > 80 ? `${s.slice(0, 80)}…` : s;
}

/** Stored or preset modulators that still fit the effect's inputs (a changed shader drops the ones that do not). */
function validModulators(desc: IsfDescriptor, raw: unknown): Record<string, Modulator> {
  const clean = cleanModulators(raw);
  if (!clean) return {};
  const out: Record<string, Modulator> = {};
  for (const [key, mod] of Object.entries(clean)) {
    const dot = key.indexOf('.');
    const name = dot < 0 ? key : key.slice(0, dot);
    const input = desc.inputs.find((i) => i.name === name);
    if (input && targetProblem(name, input.type, dot < 0 ? undefined : key.slice(dot + 1)) === null) out[key] = mod;
  }
  return out;
}
