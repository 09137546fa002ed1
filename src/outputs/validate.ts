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
  display?: string | undefined;
  x?: number | undefined;
  y?: number | undefined;
  device?: string | undefined;
}

export const OUTPUT_KINDS = ['stream', 'record', 'display', 'v4l2'] as const;
/** Kinds POST /outputs/add takes: a display or a device is the box's own hardware, named in its config file only. */
export const API_KINDS = ['stream', 'record'] as const;

/** A local X display, `:N` or `:N.S`: vjd never opens a remote X server (TCP) for a projector. */
export const DISPLAY_RE = /^:\d{1,4}(\.\d{1,2})?$/;
/** A video4linux node by its kernel name; never a path from anywhere else. */
export const DEVICE_RE = /^\/dev\/video\d{1,3}$/;
export const DEFAULT_DISPLAY = ':0';

/** Fields each kind takes besides id, name, kind, enabled, width, height and fps. */
const OWN: Record<(typeof OUTPUT_KINDS)[number], readonly string[]> = {
  stream: ['url', 'bitrateKbps'],
  record: ['bitrateKbps'],
  display: ['display', 'x', 'y'],
  v4l2: ['device'],
};
const KIND_FIELDS = ['url', 'bitrateKbps', 'display', 'x', 'y', 'device'] as const;

/** The first problem as `{field, reason}` (reason reads after the field name), or null. */
export function outputProblem(o: OutputFields): { field: string; reason: string } | null {
  if (!(OUTPUT_KINDS as readonly string[]).includes(o.kind)) return { field: 'kind', reason: `must be one of ${OUTPUT_KINDS.map((k) => `"${k}"`).join(', ')}` };
  const kind = o.kind as (typeof OUTPUT_KINDS)[number];
  for (const key of KIND_FIELDS) {
    if (o[key] === undefined || OWN[kind].includes(key)) continue;
    // Recording names and folders never come from outside: a URL on a record would be a path in disguise.
    if (kind === 'record' && key === 'url') return { field: 'url', reason: 'is not allowed for a recording (files go to the recordings folder)' };
    return { field: key, reason: `is not used by a ${kind} output` };
  }
  if (kind === 'stream') {
    if (o.url === undefined) return { field: 'url', reason: 'is required for a stream' };
    if (o.url.length > OUTPUT_LIMITS.urlMaxLength) return { field: 'url', reason: `must be at most ${OUTPUT_LIMITS.urlMaxLength} characters` };
    const check = checkStreamUrl(o.url);
    if (!check.ok) return { field: 'url', reason: check.reason };
  }
  if (kind === 'display' && o.display !== undefined && !DISPLAY_RE.test(o.display)) {
    return { field: 'display', reason: 'must be a local X display such as ":0" or ":0.1"' };
  }
  if (kind === 'v4l2') {
    if (o.device === undefined) return { field: 'device', reason: 'is required for a v4l2 output (a v4l2loopback device such as "/dev/video10")' };
    if (!DEVICE_RE.test(o.device)) return { field: 'device', reason: 'must be a video device path /dev/video<N>, such as "/dev/video10"' };
  }
  for (const key of ['bitrateKbps', 'width', 'height', 'fps', 'x', 'y'] as const) {
    const v = o[key];
    const { min, max } = OUTPUT_LIMITS[key];
    if (v !== undefined && (!Number.isInteger(v) || v < min || v > max)) return { field: key, reason: `must be an integer from ${min} to ${max}` };
  }
  return null;
}
