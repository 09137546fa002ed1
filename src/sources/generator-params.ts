// Input values of the program source when it is a generator (or a source preset, a generator with saved inputs):
// validated here with the shared value rules, applied by the render worker. The values belong to one activation:
// a switch to another source (or back) starts from the source's own inputs again, as the renderer does.
import type { IsfDescriptor } from '../shared/isf-types.js';
import { applyValues, firedEvents, inputStates, persistable, type InputState } from '../shared/param-values.js';
import { ApiError } from '../errors.js';
import type { CurrentSource, SourceEntry } from './source-manager.js';
import { sourceKindOf } from './kinds/index.js';

export interface GeneratorParamsDeps {
  currentSource(): CurrentSource;
  list(): readonly SourceEntry[];
  generators(): readonly IsfDescriptor[];
  /** Sends validated values to the renderer for the source with render key `key`. */
  apply(key: string, values: Record<string, unknown>, fire: string[]): void;
}

export interface GeneratorParamsView {
  id: string;
  inputs: InputState[];
}

export class GeneratorParams {
  /** Values set since the program source (render key) last switched; null = the entry's own inputs. */
  private key = '';
  private values: Record<string, unknown> | null = null;
  private readonly listeners: Array<() => void> = [];

  constructor(private readonly d: GeneratorParamsDeps) {}

  /** Called after every change of the values or of the source they belong to (the `generator` event topic). */
  onChange(cb: () => void): void {
    this.listeners.push(cb);
  }

  /** The renderer switched its program source (render key `kind:id`): values start from that source's inputs. */
  switched(key: string): void {
    this.reset(key);
    for (const cb of this.listeners) cb();
  }

  get(): GeneratorParamsView {
    const p = this.program();
    return { id: p.entry.id, inputs: inputStates(p.desc.inputs, p.values) };
  }

  /** Merges `request` into the values (all or nothing); throws 400 INVALID_REQUEST naming the input. */
  set(request: Record<string, unknown>): GeneratorParamsView {
    const p = this.program();
    const r = applyValues(p.desc.inputs, p.values, request);
    if (!r.ok) throw new ApiError('INVALID_REQUEST', `${p.entry.name}: ${r.problem.message}; nothing changed`, r.problem.details);
    this.values = persistable(p.desc.inputs, r.values);
    this.d.apply(p.key, r.values, firedEvents(p.desc.inputs, r.values));
    for (const cb of this.listeners) cb();
    return { id: p.entry.id, inputs: inputStates(p.desc.inputs, r.values) };
  }

  /** The program generator: its source entry, descriptor, render key and values (409 NOT_A_GENERATOR otherwise). */
  program(): { entry: SourceEntry; desc: IsfDescriptor; key: string; values: Record<string, unknown> } {
    const c = this.d.currentSource();
    const key = `${c.sourceKind}:${c.id}`;
    const entry = this.d.list().find((e) => e.id === c.id && e.sourceKind === c.sourceKind);
    const spec = entry?.spec;
    const desc = spec?.kind === 'generator' ? this.d.generators().find((g) => g.type === spec.type) : undefined;
    if (!entry || !desc || spec?.kind !== 'generator') {
      const what =
        c.sourceKind === 'none' ? 'no source is selected' : `the program source "${c.name}" is ${sourceKindOf(c.sourceKind).notAGenerator}`;
      throw new ApiError('NOT_A_GENERATOR', `${what}; only generators and source presets have parameters`);
    }
    if (key !== this.key) this.reset(key);
    return { entry, desc, key, values: this.values ?? spec.inputs };
  }

  private reset(key: string): void {
    this.key = key;
    this.values = null;
  }
}
