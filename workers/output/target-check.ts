// Whether an output's target is there before its ffmpeg starts (the kind says how, when it has one to check):
// a missing device or an X server that is not up is a `failed` output with a line saying what to do, not an
// ffmpeg restart loop.
import { outputKind, type OutputSpec } from '../../src/shared/output-kinds/index.js';
import type { TargetCheck } from '../../src/shared/output-kinds/types.js';

export type { TargetCheck } from '../../src/shared/output-kinds/types.js';

export function needsCheck(spec: OutputSpec): boolean {
  return outputKind<typeof spec>(spec.kind).checkTarget !== undefined;
}

export function checkTarget(spec: OutputSpec, ffmpeg: string): Promise<TargetCheck> {
  return outputKind<typeof spec>(spec.kind).checkTarget?.(spec, ffmpeg) ?? Promise.resolve({ ok: true });
}
