// The rules an output definition must meet, shared by the config loader and POST /outputs/add, so a URL the
// file may not hold cannot come in over the network either (and the other way round).
import { OUTPUT_LIMITS } from '../limits.js';
import { checkStreamUrl } from './url.js';

export interface OutputFields {
  kind: string;
  url?: string | undefined;
  bitrateKbps?: number | undefined;
  width?: number | undefined;
  height?: number | undefined;
  fps?: number | undefined;
}

/** The first problem as `{field, reason}` (reason reads after the field name), or null. */
export function outputProblem(o: OutputFields): { field: string; reason: string } | null {
  if (o.kind !== 'stream' && o.kind !== 'record') return { field: 'kind', reason: 'must be "stream" or "record"' };
  if (o.kind === 'stream') {
    if (o.url === undefined) return { field: 'url', reason: 'is required for a stream' };
    if (o.url.length > OUTPUT_LIMITS.urlMaxLength) return { field: 'url', reason: `must be at most ${OUTPUT_LIMITS.urlMaxLength} characters` };
    const check = checkStreamUrl(o.url);
    if (!check.ok) return { field: 'url', reason: check.reason };
  } else if (o.url !== undefined) {
    // Recording names and folders never come from outside: a URL on a record would be a path in disguise.
    return { field: 'url', reason: 'is not allowed for a recording (files go to the recordings folder)' };
  }
  for (const key of ['bitrateKbps', 'width', 'height', 'fps'] as const) {
    const v = o[key];
    const { min, max } = OUTPUT_LIMITS[key];
    if (v !== undefined && (!Number.isInteger(v) || v < min || v > max)) return { field: key, reason: `must be an integer from ${min} to ${max}` };
  }
  return null;
}
