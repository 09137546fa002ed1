// Builds the ffmpeg command line for one ingest source (and the part every reader's shares, clips' too) and parses
// the stderr lines the supervisor cares about (pure).
import type { IngestInput } from '../../src/shared/protocol/ingest.js';
import { pcmOutputArgs } from './pcm-output.js';
import { urlInputArgs } from '../../src/shared/url-input.js';

export interface FfmpegArgsOptions {
  input: IngestInput;
  /** The box frames are scaled to fit, keeping their aspect ratio. */
  maxWidth: number;
  maxHeight: number;
  /** Upper bound of the delivered frame rate. */
  fps: number;
  /** Adds the PCM output of the audio track (workers/ingest/pcm-output.ts). */
  audio?: boolean;
}

function inputArgs(input: IngestInput): string[] {
  switch (input.kind) {
    case 'lavfi':
      // lavfi generates as fast as it can; -re paces it at its own frame rate.
      return ['-re', '-f', 'lavfi', '-i', input.pattern];
    case 'url':
      return urlInputArgs(input.url);
    case 'v4l2':
      return ['-f', 'v4l2', '-i', input.device];
    case 'file':
      return input.still ? ['-i', input.path] : ['-re', '-stream_loop', '-1', '-i', input.path];
  }
}

/**
 * Video filter chain: drop frames that come sooner than 1/fps after the last one kept (never duplicate: a stalled
 * source must look stalled, and a burst of copies after a gap helps nobody), then fit the box with even sides.
 * abs() keeps the cap from freezing output when a stream's timestamps jump backwards; 0.9/fps tolerates jitter so a
 * source at exactly the cap is not halved.
 */
export function videoFilter(maxWidth: number, maxHeight: number, fps: number | null): string {
  const fit = fitFilter({ w: maxWidth, h: maxHeight });
  if (fps === null) return fit;
  const gap = (0.9 / fps).toFixed(6);
  return `select='isnan(prev_selected_t)+isnan(t)+gte(abs(t-prev_selected_t)\\,${gap})',${fit}`;
}

/** Scales to fit `box` (even sides) keeping the aspect ratio. */
export function fitFilter(box: { w: number; h: number }): string {
  return `scale=w=${box.w}:h=${box.h}:force_original_aspect_ratio=decrease:force_divisible_by=2`;
}

/** The box with even sides a reader scales to; throws for a box or a rate no reader can serve. */
export function readerBox(maxWidth: number, maxHeight: number, fps: number): { w: number; h: number } {
  const box = { w: Math.floor(maxWidth / 2) * 2, h: Math.floor(maxHeight / 2) * 2 };
  if (box.w < 2 || box.h < 2) throw new RangeError(`box ${maxWidth}x${maxHeight} is too small`);
  if (!(fps > 0)) throw new RangeError(`fps must be positive, got ${fps}`);
  return box;
}

/**
 * Every reader's command line: `input` (its options and `-i`), its first video track only through `filter`, then
 * `video` (frame options), as tightly packed RGBA on stdout; the audio track's PCM output when `audio`.
 */
export function readerArgs(input: string[], filter: string, video: string[], audio?: boolean): string[] {
  return [
    '-hide_banner',
    '-nostdin',
    '-nostats',
    // info prints the "Output #0" stream line that tells the frame size; the level tag makes errors easy to pick out.
    '-loglevel',
    'level+info',
    ...input,
    '-map',
    '0:v:0',
    '-an',
    '-sn',
    '-dn',
    '-vf',
    filter,
    ...video,
    '-f',
    'rawvideo',
    '-pix_fmt',
    'rgba',
    'pipe:1',
    ...(audio ? pcmOutputArgs() : []),
  ];
}

/** Arguments after the ffmpeg executable. */
export function buildFfmpegArgs(opts: FfmpegArgsOptions): string[] {
  const { input } = opts;
  const still = input.kind === 'file' && input.still;
  const box = readerBox(opts.maxWidth, opts.maxHeight, opts.fps);
  // passthrough: the rawvideo muxer would otherwise ask for constant frame rate and duplicate frames again.
  const video = ['-fps_mode', 'passthrough', ...(still ? ['-frames:v', '1'] : [])];
  return readerArgs(inputArgs(input), videoFilter(box.w, box.h, still ? null : opts.fps), video, opts.audio);
}

export interface StderrLine {
  level: string;
  /** The component that logged it (`lavfi`, `tcp`, …) or '' for ffmpeg itself. */
  context: string;
  text: string;
}

const LINE_RE = /^(?:\[([^\]]*?) @ 0x[0-9a-f]+\] )?\[(trace|debug|verbose|info|warning|error|fatal|panic)\] ?(.*)$/;

/** Splits a `-loglevel level+info` stderr line into its level, context and text. */
export function parseStderrLine(line: string): StderrLine | null {
  const m = LINE_RE.exec(line);
  if (!m) return null;
  return { level: m[2]!, context: m[1] ?? '', text: m[3]!.trim() };
}

const OUTPUT_STREAM_RE = /^Stream #\d+:\d+.*?: Video: rawvideo\b.*?, (\d{1,5})x(\d{1,5})\b/;

/** Parses the frame size from the output section's video stream line (`Stream #0:0: Video: rawvideo …, 120x90 …`). */
export function parseOutputSize(text: string): { width: number; height: number } | null {
  const m = OUTPUT_STREAM_RE.exec(text);
  return m ? { width: Number(m[1]), height: Number(m[2]) } : null;
}

/** Whether an error line is worth showing an operator (per-packet decoder noise is not). */
export function isMeaningfulError(line: StderrLine): boolean {
  if (line.level !== 'error' && line.level !== 'fatal' && line.level !== 'panic') return false;
  if (line.text === '') return false;
  // Decoders complain per damaged packet after a cut; those lines say nothing about why the source went away.
  if (
    /^(error while decoding|concealing|corrupt|Invalid NAL|missing picture|top block unavailable|left block unavailable|non-existing PPS|no frame!|decode_slice_header error|mmco:|Error submitting packet to decoder|Invalid data found when processing input$)/i.test(
      line.text,
    )
  ) {
    return false;
  }
  return true;
}
