// The H.264 encoders a stream or record output may use: libx264 in software, or one of the hardware encoders ffmpeg
// offers. Each has its own low-latency settings, the same keyframe interval (one second) and the same bitrate
// limits, so a receiver sees the same stream shape whichever encoder made it; some need their frames in another
// pixel format or uploaded to the GPU first. Pure argument building: which encoder works is found on the main
// thread (src/outputs/encoder-probe.ts) and comes to the output worker in the spec.

/** What an output's `encoder` field takes: `auto` picks the first hardware encoder that works, else libx264. */
export const ENCODER_CHOICES = ['auto', 'x264', 'h264_nvenc', 'h264_vaapi', 'h264_qsv'] as const;
export type EncoderChoice = (typeof ENCODER_CHOICES)[number];

/** Hardware encoders in the order `auto` tries them. */
export const HW_ENCODERS = ['h264_nvenc', 'h264_qsv', 'h264_vaapi'] as const;
export type HwEncoder = (typeof HW_ENCODERS)[number];

/** ffmpeg encoder names, as the spec carries them and GET /outputs shows them (`encoderInUse`). */
export const H264_ENCODERS = ['libx264', ...HW_ENCODERS] as const;
export type H264Encoder = (typeof H264_ENCODERS)[number];

/** The render node VAAPI encodes on; without it VAAPI is never tried. */
export const VAAPI_DEVICE = '/dev/dri/renderD128';

/** What the codec options depend on (an encoded kind's spec has it; this file stays below types.ts). */
export interface EncodeSettings {
  encoder: H264Encoder;
  width: number;
  height: number;
  fps: number;
  bitrateKbps: number;
}

export function isHwEncoder(name: string): name is HwEncoder {
  return (HW_ENCODERS as readonly string[]).includes(name);
}

/** The encoder an explicit choice names (`auto` is resolved by the probe). */
export function namedEncoder(choice: Exclude<EncoderChoice, 'auto'>): H264Encoder {
  return choice === 'x264' ? 'libx264' : choice;
}

/** The H.264 encoders an `ffmpeg -encoders` listing has, of those vjd knows. */
export function listedEncoders(listing: string): Set<H264Encoder> {
  const out = new Set<H264Encoder>();
  for (const name of H264_ENCODERS) if (new RegExp(`^\\s*V\\S*\\s+${name}\\s`, 'm').test(listing)) out.add(name);
  return out;
}

/** Global options an encoder needs (ffmpeg takes them anywhere on the command line). */
export function deviceArgs(encoder: H264Encoder): string[] {
  return encoder === 'h264_vaapi' ? ['-vaapi_device', VAAPI_DEVICE] : [];
}

/**
 * What follows the yuv420p frames of the filter chain: VAAPI encodes GPU surfaces, so frames are converted and
 * uploaded; Quick Sync takes nv12 from system memory; NVENC and x264 take yuv420p as it is.
 */
export function filterSuffix(encoder: H264Encoder): string {
  if (encoder === 'h264_vaapi') return ',format=nv12,hwupload';
  if (encoder === 'h264_qsv') return ',format=nv12';
  return '';
}

/** Per encoder: its own low-latency settings (no B-frames, no lookahead), before the shared GOP and rate ones. */
const OWN: Record<H264Encoder, string[]> = {
  libx264: ['-preset', 'veryfast', '-tune', 'zerolatency'],
  h264_nvenc: ['-preset', 'p1', '-tune', 'ull', '-rc', 'cbr', '-zerolatency', '1', '-delay', '0', '-bf', '0'],
  h264_vaapi: ['-rc_mode', 'CBR', '-bf', '0'],
  h264_qsv: ['-preset', 'veryfast', '-async_depth', '1', '-bf', '0'],
};

/** The codec options: a keyframe every second, so a late receiver shows a picture within one, at a constant rate. */
export function codecArgs(encoder: H264Encoder, fps: number, kbps: number): string[] {
  // x264 would also cut a GOP short at a scene change; fixed keyframes keep shared encodes and receivers in step.
  const gop = encoder === 'libx264' ? ['-g', String(fps), '-keyint_min', String(fps), '-sc_threshold', '0'] : ['-g', String(fps)];
  const rate = ['-b:v', `${kbps}k`, '-maxrate', `${kbps}k`, '-bufsize', `${Math.max(1, Math.round(kbps / 2))}k`];
  return ['-c:v', encoder, ...OWN[encoder], ...gop, ...rate];
}

/** The filter chain and codec options after the input, for a spec whose frames `base` (the kind's chain) yields. */
export function encodeArgs(spec: EncodeSettings, base: string): string[] {
  return [
    ...deviceArgs(spec.encoder),
    '-an',
    '-vf',
    base + filterSuffix(spec.encoder),
    ...codecArgs(spec.encoder, spec.fps, spec.bitrateKbps),
  ];
}

/** The size and rate of the one-frame trial: small, and a multiple of the blocks every encoder aligns to. */
const TRIAL = { width: 256, height: 144, fps: 30, kbps: 1000 };

/** One small frame through the encoder with the settings an output uses, to nowhere: does this box run it? */
export function trialArgs(encoder: HwEncoder): string[] {
  const spec: EncodeSettings = { encoder, width: TRIAL.width, height: TRIAL.height, fps: TRIAL.fps, bitrateKbps: TRIAL.kbps };
  const input = ['-f', 'lavfi', '-i', `color=c=black:s=${TRIAL.width}x${TRIAL.height}:r=${TRIAL.fps}`, '-frames:v', '1'];
  return ['-hide_banner', '-nostats', '-loglevel', 'error', ...input, ...encodeArgs(spec, 'format=yuv420p'), '-f', 'null', '-'];
}
