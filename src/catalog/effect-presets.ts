// Effect presets: JSON files `{name, effect: <type>, inputs: {...}}` that add one effect with saved input values
// (triggered through the actions facility). Checked against the effect's ISF inputs when the catalog loads.
import { isSamplerInput, type IsfDescriptor, type IsfInput } from '../shared/isf-types.js';
import { isfTypeFromFileName } from './isf-parse.js';
import { checkModulator, targetProblem, type Modulator } from '../shared/modulation.js';
import { MOD_LIMITS } from '../limits.js';

export interface EffectPreset {
  /** From the file name (`[a-z0-9_]`); carried by the chain item as `presetId`. */
  id: string;
  name: string;
  /** Effect type it adds. */
  effect: string;
  inputs: Record<string, unknown>;
  /** Modulated inputs (`input` or `input.component`) → modulator; absent when the look has none. */
  modulators?: Record<string, Modulator>;
  file: string;
  /** Values a built-in preset had to leave out because an operator file replaced its effect without those inputs. */
  dropped?: string[];
}

/** Validates a parsed preset file; throws with the reason the file is skipped. */
export function parseEffectPreset(
  raw: Record<string, unknown>,
  fileName: string,
  file: string,
  effects: ReadonlyMap<string, IsfDescriptor>,
  builtin = false,
): EffectPreset {
  const name = raw.name;
  if (typeof name !== 'string' || name.trim() === '' || name.length > 128)
    throw new Error('"name" must be a string of 1 to 128 characters');
  const effect = raw.effect;
  const desc = typeof effect === 'string' ? effects.get(effect) : undefined;
  if (!desc) throw new Error(`"effect" must name an installed effect (got ${JSON.stringify(effect)?.slice(0, 80)})`);
  const inputs = raw.inputs ?? {};
  if (typeof inputs !== 'object' || inputs === null || Array.isArray(inputs)) throw new Error('"inputs" must be an object');
  // A built-in preset whose effect an operator file replaced keeps working with the values the new file can take.
  const lenient = builtin && desc.replaces !== undefined;
  const out: Record<string, unknown> = {};
  const dropped: string[] = [];
  for (const [key, value] of Object.entries(inputs)) {
    const input = desc.inputs.find((i) => i.name === key);
    const problem = !input || isSamplerInput(input) ? `effect ${desc.type} has no such input` : checkValue(input, value);
    if (problem && lenient) dropped.push(`"inputs.${key}": ${problem}`);
    else if (problem) throw new Error(`"inputs.${key}": ${problem}`);
    else out[key] = value;
  }
  const modulators = presetModulators(raw.modulators, desc);
  const preset: EffectPreset = {
    id: isfTypeFromFileName(fileName),
    name: name.trim(),
    effect: desc.type,
    inputs: out,
    ...(modulators ? { modulators } : {}),
    file,
  };
  if (dropped.length > 0) preset.dropped = dropped;
  return preset;
}

/** A preset's modulators, each checked as a request's would be and against the effect's inputs. */
function presetModulators(raw: unknown, desc: IsfDescriptor): Record<string, Modulator> | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error('"modulators" must be an object');
  const entries = Object.entries(raw);
  if (entries.length > MOD_LIMITS.perTarget) throw new Error(`"modulators": at most ${MOD_LIMITS.perTarget}`);
  const out: Record<string, Modulator> = {};
  for (const [key, value] of entries) {
    const dot = key.indexOf('.');
    const name = dot < 0 ? key : key.slice(0, dot);
    const input = desc.inputs.find((i) => i.name === name);
    const where = `"modulators.${key.slice(0, 80)}"`;
    if (!input) throw new Error(`${where}: effect ${desc.type} has no such input`);
    const problem = targetProblem(name, input.type, dot < 0 ? undefined : key.slice(dot + 1));
    if (problem) throw new Error(`${where}: ${problem}`);
    const c = checkModulator(value);
    if (!c.ok) throw new Error(`${where}: ${c.problem.field} must be ${c.problem.rule}`);
    out[key] = c.modulator;
  }
  return entries.length > 0 ? out : undefined;
}

/** Type check only: ranges are clamped where values reach the shader, as for every other input value. */
function checkValue(input: IsfInput, v: unknown): string | null {
  switch (input.type) {
    case 'float':
    case 'long':
      if (typeof v !== 'number' || !Number.isFinite(v)) return 'must be a finite number';
      if (input.type === 'long' && input.values && !input.values.includes(Math.round(v)))
        return `must be one of ${input.values.join(', ')}`;
      return null;
    case 'bool':
    case 'event':
      return typeof v === 'boolean' ? null : 'must be true or false';
    case 'color':
      return Array.isArray(v) && (v.length === 3 || v.length === 4) && v.every((x) => typeof x === 'number' && Number.isFinite(x))
        ? null
        : 'must be [r, g, b] or [r, g, b, a] numbers 0..1';
    case 'point2D':
      return Array.isArray(v) && v.length === 2 && v.every((x) => typeof x === 'number' && Number.isFinite(x))
        ? null
        : 'must be [x, y] numbers';
    default:
      return 'is not settable';
  }
}
