// The ffmpeg command line of one clip reader: decoded as fast as it is read (no -re), from an exact position to the
// out point, resampled to the render rate so output frame k sits at start + k/fps (pure).
import { fitFilter, readerArgs, readerBox } from './ffmpeg-args.js';

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
  const box = readerBox(o.maxWidth, o.maxHeight, o.fps);
  const input = [
    ...(o.loop ? ['-stream_loop', '-1'] : []),
    ...(o.startS > 0 ? ['-ss', secs(o.startS)] : []),
    ...(o.spanS !== null ? ['-t', secs(o.spanS)] : []),
    '-i',
    o.path,
  ];
  // start_time=0 pads a seek target that falls between two source frames, so frame 0 is the target itself.
  const filter = `fps=fps=${o.fps}:start_time=0,${fitFilter(box)}`;
  // -t bounds what is read, not what the fps filter emits: past a keyframe seek it can pad a frame or two beyond
  // the out point, which would show (and report) a position of the next segment. The count is exact.
  const frames = o.spanS !== null && !o.loop ? ['-frames:v', String(Math.max(1, Math.ceil(o.spanS * o.fps - 1e-6)))] : [];
  return readerArgs(input, filter, frames, o.audio);
}
