// The output kinds, one descriptor each: adding a kind is its file and one line in OUTPUT_KIND_LIST. Also the
// rules every definition meets whatever its kind, shared by the config loader and POST /outputs/add, so a URL the
// file may not hold cannot come in over the network either (and the other way round).
import { OUTPUT_LIMITS } from '../../limits.js';
import { displayKind } from './display.js';
import { recordKind } from './record.js';
import { streamKind } from './stream.js';
import type { OutputFields, OutputKindDescriptor, Problem, SpecBase } from './types.js';
import { v4l2Kind } from './v4l2.js';

export const OUTPUT_KIND_LIST = [streamKind, recordKind, displayKind, v4l2Kind] as const;

type Descriptors = (typeof OUTPUT_KIND_LIST)[number];
export type OutputKind = Descriptors['kind'];
/** What one consumer runs, by kind. */
export type OutputSpec = Descriptors extends OutputKindDescriptor<string, infer S> ? S : never;

export const OUTPUT_KINDS = OUTPUT_KIND_LIST.map((k) => k.kind) as OutputKind[];
/** Kinds POST /outputs/add takes: a display or a device is the box's own hardware, named in its config file only. */
export const API_KINDS = OUTPUT_KIND_LIST.filter((k) => k.fromApi).map((k) => k.kind) as OutputKind[];

/** The descriptor of a kind (the spec's own kind: its parts always fit that spec). */
export function outputKind<S extends OutputSpec>(kind: S['kind']): OutputKindDescriptor<S['kind'], S> {
  return OUTPUT_KIND_LIST.find((k) => k.kind === kind) as unknown as OutputKindDescriptor<S['kind'], S>;
}

/** A kind with an `encoder` field encodes H.264: its encoder is resolved on the main thread before each start. */
export function encodesH264(kind: OutputKind): boolean {
  return 'encoder' in outputKind(kind).fields;
}

export function isOutputKind(kind: unknown): kind is OutputKind {
  return (OUTPUT_KINDS as unknown[]).includes(kind);
}

/** Every kind's own fields, in registry order (a field two kinds share is listed once). */
export const KIND_FIELDS = [...new Set(OUTPUT_KIND_LIST.flatMap((k) => Object.keys(k.fields)))] as Array<keyof OutputFields>;
const RANGED = ['bitrateKbps', 'width', 'height', 'fps', 'x', 'y'] as const;

/** The first problem as `{field, reason}` (reason reads after the field name), or null. */
export function outputProblem(o: OutputFields): Problem {
  if (!isOutputKind(o.kind)) return { field: 'kind', reason: `must be one of ${OUTPUT_KINDS.map((k) => `"${k}"`).join(', ')}` };
  const desc = outputKind(o.kind) as OutputKindDescriptor<OutputKind, SpecBase & { kind: OutputKind }>;
  for (const key of KIND_FIELDS) {
    if (o[key] === undefined || key in desc.fields) continue;
    return { field: key, reason: desc.refused?.[key] ?? `is not used by a ${o.kind} output` };
  }
  const own = desc.problem(o);
  if (own) return own;
  for (const [key, f] of Object.entries(desc.fields)) {
    const v = o[key as keyof OutputFields];
    if (f.type === 'enum' && v !== undefined && !f.values.includes(String(v)))
      return { field: key, reason: `must be one of ${f.values.map((x) => `"${x}"`).join(', ')}` };
  }
  for (const key of RANGED) {
    const v = o[key];
    const { min, max } = OUTPUT_LIMITS[key];
    if (v !== undefined && (!Number.isInteger(v) || v < min || v > max))
      return { field: key, reason: `must be an integer from ${min} to ${max}` };
  }
  return null;
}

export type { OutputFields } from './types.js';
