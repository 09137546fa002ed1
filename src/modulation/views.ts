// How modulation shows in the input views: beside each input's `value` (the set value), its `modulator` and `live`
// (the applied value of a recent frame). A point2D or color input shows both per component, as objects.
import type { LiveReport } from '../shared/protocol/render.js';
import { componentsOf, modKey, type Modulator } from '../shared/modulation.js';
import type { InputState } from '../shared/param-values.js';

export type LiveValue = number | boolean | Record<string, number | boolean> | null;
export type ModulatedState = InputState & { modulator: Modulator | Record<string, Modulator> | null; live: LiveValue };

/** `live`: the applied values of this target's modulated keys in a recent frame, or null when none were reported. */
export function withModulation(
  states: readonly InputState[],
  mods: Readonly<Record<string, Modulator>> | undefined,
  live: Readonly<Record<string, number | boolean>> | null,
): ModulatedState[] {
  return states.map((s) => {
    const comps = componentsOf(s.type);
    if (!mods || comps === null) return { ...s, modulator: null, live: null };
    if (comps.length === 0) {
      const m = mods[s.name] ?? null;
      return { ...s, modulator: m, live: m ? (live?.[s.name] ?? null) : null };
    }
    const modulator: Record<string, Modulator> = {};
    const values: Record<string, number | boolean> = {};
    for (const c of comps) {
      const m = mods[modKey(s.name, c)];
      if (!m) continue;
      modulator[c] = m;
      const v = live?.[modKey(s.name, c)];
      if (v !== undefined) values[c] = v;
    }
    const any = Object.keys(modulator).length > 0;
    return { ...s, modulator: any ? modulator : null, live: any && Object.keys(values).length > 0 ? values : null };
  });
}

/** The live values of chain position `index` (1-based) when the report describes the chain of snapshot `version`. */
export function chainLive(report: LiveReport | null, version: number, index: number): Record<string, number | boolean> | null {
  if (!report || report.version !== version) return null;
  return report.effects[index - 1] ?? null;
}
