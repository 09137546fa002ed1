// What an output kind is: one descriptor holding its config fields, its validation, how vjd finds out the box
// can run it, the spec the output worker gets, the check of its target and its ffmpeg arguments.
import { ENCODER_CHOICES, encodeArgs, type EncoderChoice, type H264Encoder } from './encoders.js';

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
  /** stream and record: `auto` (default), `x264` or a hardware encoder (encoders.ts). */
  encoder?: EncoderChoice | undefined;
}

/** A field of a kind, described for the config schema (a string by its length, an integer by its range, or one of a list). */
export type KindField =
  | { type: 'string'; maxLength: number; what: string; example?: string }
  | { type: 'integer'; min: number; max: number }
  | { type: 'enum'; values: readonly string[] };

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
  /** The H.264 encoder this output's `encoder` resolved to (kinds that encode H.264 only). */
  encoder: H264Encoder;
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

/**
 * The filter chain every encoded kind starts with: the output size (even: 4:2:0 chroma needs it) in BT.709 limited
 * range. Program frames arrive upright, in I420 already where the render packed them, so at the render size this is
 * a copy; RGBA frames are converted here with the same matrix.
 */
export function scaleFilter(spec: SpecBase): string {
  const size = `${spec.width - (spec.width % 2)}:${spec.height - (spec.height % 2)}`;
  return `scale=${size}:flags=bilinear:out_color_matrix=bt709:out_range=tv,format=yuv420p,setparams=range=tv:colorspace=bt709:color_primaries=bt709:color_trc=bt709`;
}

/** A spec whose encoder is decided: the output worker never probes. */
export interface EncodedSpec extends SpecBase {
  encoder: H264Encoder;
}

/** The config and API field of the kinds that encode H.264. */
export const ENCODER_FIELD: KindField = { type: 'enum', values: ENCODER_CHOICES };

/** H.264 for the network and for files with the encoder the spec names (its codec options are in encoders.ts). */
export function h264(spec: EncodedSpec): string[] {
  return encodeArgs(spec, scaleFilter(spec));
}

/** libx264 among the video encoders. */
export const HAS_X264 = /^\s*V\S*\s+libx264\s/m;
