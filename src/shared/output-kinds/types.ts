// What an output kind is: one descriptor holding its config fields, its validation, how vjd finds out the box
// can run it, the spec the output worker gets, the check of its target and its ffmpeg arguments.

/** A definition as the config file or POST /outputs/add gives it (each kind reads its own fields). */
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

/** A field of a kind, described for the config schema (a string by its length, an integer by its range). */
export type KindField =
  | { type: 'string'; maxLength: number; what: string; example?: string }
  | { type: 'integer'; min: number; max: number };

/** What every consumer has, whatever its kind: an ffmpeg fed `fps` frames a second from the output ring. */
export interface SpecBase {
  width: number;
  height: number;
  fps: number;
  bitrateKbps: number;
  /** Texts never to show in `lastError` or a log line (URL credentials), replaced by `***`. */
  secrets: string[];
}

export type Problem = { field: string; reason: string } | null;
export type Size = { width: number; height: number };
export type TargetCheck = { ok: true; screen?: Size } | { ok: false; reason: string };
export interface BuiltArgs {
  args: string[];
  /** record: the file written. */
  file?: string;
  /** display: the window opened. */
  size?: Size;
}

/** What the main thread knows when it turns a definition into a spec. */
export interface SpecContext {
  /** The output size and rate: the definition's, else the render's. */
  size: Size & { fps: number };
  bitrateKbps: number;
  recordingsDir: string;
  /** Config `recordings.shareEncoder`. */
  shareRecordings: boolean;
}

export interface OutputKindDescriptor<K extends string, S extends SpecBase & { kind: K }> {
  kind: K;
  /** POST /outputs/add may create it (a display or a device is the box's own hardware: config file only). */
  fromApi: boolean;
  /** Fields this kind takes besides id, name, kind, enabled, width, height and fps. */
  fields: Readonly<Record<string, KindField>>;
  /** Why a field of another kind is refused here, where "is not used by a … output" would not say enough. */
  refused?: Readonly<Record<string, string>>;
  /** Rules beyond the field types and ranges; the first problem, or null. */
  problem(o: OutputFields): Problem;
  /** Whether this ffmpeg build can run the kind, from its `-encoders` and `-devices` listings. */
  built(encoders: string, devices: string): boolean;
  /** Whether what the kind needs is attached now (looked at again every few seconds); absent: always. */
  attached?(ctx: { displays: string[]; sysfsDir: string }): Promise<boolean>;
  spec(o: OutputFields, ctx: SpecContext): S;
  /** What GET /outputs shows as `target` (never a credential). */
  target(o: OutputFields, file: string | null): string | null;
  /** Checked before each ffmpeg start; a missing target is a `failed` output, looked for again. */
  checkTarget?(spec: S, ffmpeg: string): Promise<TargetCheck>;
  /** ffmpeg's arguments after the raw-frame input ones; `screen` is what the target check found. */
  args(id: string, spec: S, input: string[], now: Date, screen?: Size): BuiltArgs;
  /** Environment ffmpeg needs besides vjd's own. */
  env?(spec: S): Record<string, string>;
}

/** Even sizes (4:2:0 chroma needs them), then the filter chain every encoded kind starts with: bottom-up rows flipped. */
export function scaleFilter(spec: SpecBase): string {
  return `vflip,scale=${spec.width - (spec.width % 2)}:${spec.height - (spec.height % 2)}:flags=bilinear,format=yuv420p`;
}

/** H.264 for the network and for files: a keyframe every second, so a late receiver shows a picture within one. */
export function h264(spec: SpecBase): string[] {
  const kbps = spec.bitrateKbps;
  return [
    '-an',
    '-vf',
    scaleFilter(spec),
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-tune',
    'zerolatency',
    '-g',
    String(spec.fps),
    '-keyint_min',
    String(spec.fps),
    '-sc_threshold',
    '0',
    '-b:v',
    `${kbps}k`,
    '-maxrate',
    `${kbps}k`,
    '-bufsize',
    `${Math.max(1, Math.round(kbps / 2))}k`,
  ];
}

/** libx264 among the video encoders. */
export const HAS_X264 = /^\s*V\S*\s+libx264\s/m;
