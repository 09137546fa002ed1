// The ffmpeg command line of one clip reader: decoded as fast as it is read (no -re), from an exact position to the
// out point, resampled to the render rate so output frame k sits at start + k/fps (pure).
import { pcmOutputArgs } from './pcm-output.js';

export interface ClipArgsOptions {
  path: string;
  /** Where the reader starts (s): ffmpeg seeks to the keyframe before it and drops the frames up to it. */
  startS: number;
  /** Seconds to read from the start; null reads to the end of the file. */
  spanS: number | null;
  /** Reads the file over and over (a plain loop: one process, as media always played). */
  loop?: boolean;
  maxWidth: number;
  maxHeight: number;
  fps: number;
  audio?: boolean;
}

/** Seconds as ffmpeg reads them, without exponent notation. */
const secs = (s: number): string => Math.max(0, s).toFixed(6);

export function buildClipArgs(o: ClipArgsOptions): string[] {
  const w = Math.floor(o.maxWidth / 2) * 2;
  const h = Math.floor(o.maxHeight / 2) * 2;
  if (w < 2 || h < 2) throw new RangeError(`box ${o.maxWidth}x${o.maxHeight} is too small`);
  if (!(o.fps > 0)) throw new RangeError(`fps must be positive, got ${o.fps}`);
  const fit = `scale=w=${w}:h=${h}:force_original_aspect_ratio=decrease:force_divisible_by=2`;
  return [
    '-hide_banner',
    '-nostdin',
    '-nostats',
    '-loglevel',
    'level+info',
    ...(o.loop ? ['-stream_loop', '-1'] : []),
    ...(o.startS > 0 ? ['-ss', secs(o.startS)] : []),
    ...(o.spanS !== null ? ['-t', secs(o.spanS)] : []),
    '-i',
    o.path,
    '-map',
    '0:v:0',
    '-an',
    '-sn',
    '-dn',
    // start_time=0 pads a seek target that falls between two source frames, so frame 0 is the target itself.
    '-vf',
    `fps=fps=${o.fps}:start_time=0,${fit}`,
    // -t bounds what is read, not what the fps filter emits: past a keyframe seek it can pad a frame or two beyond
    // the out point, which would show (and report) a position of the next segment. The count is exact.
    ...(o.spanS !== null && !o.loop ? ['-frames:v', String(Math.max(1, Math.ceil(o.spanS * o.fps - 1e-6)))] : []),
    '-f',
    'rawvideo',
    '-pix_fmt',
    'rgba',
    'pipe:1',
    ...(o.audio ? pcmOutputArgs() : []),
  ];
}
