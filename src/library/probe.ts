// ffprobe wrapper: classifies a file as a video, a still image, or unsupported (null), without blocking the main thread.
import { execFile } from 'node:child_process';

export type MediaType = 'video' | 'image';

export interface ProbeInfo {
  type: MediaType;
  width: number;
  height: number;
  /** Seconds; null for stills and for videos whose container reports no duration. */
  durationSec: number | null;
  /** Average frame rate; null for stills or when the container does not say. */
  fps: number | null;
  codec: string;
  format: string;
}

/** null: the file is not a playable video or image (unsupported, corrupt or unreadable); cacheable. */
export type ProbeResult = ProbeInfo | null;

/**
 * Probes one file. Resolves null for files that are not media; rejects only for failures that say nothing
 * about the file (ffprobe missing, timeout under load), so the caller does not cache them.
 */
export type ProbeFn = (file: string) => Promise<ProbeResult>;

export interface ProbeOptions {
  ffprobe?: string;
  timeoutMs?: number;
}

export class ProbeError extends Error {}

export const PROBE_TIMEOUT_MS = 10_000;

// Demuxers that read single pictures; a video stream from one of them is a still.
const IMAGE_FORMATS = new Set(['image2', 'png', 'apng', 'webp', 'bmp', 'tiff', 'jpeg', 'jpegls', 'j2k', 'gif', 'psd', 'qoi']);
// Codecs that are pictures when they carry a single frame with no real duration.
const IMAGE_CODECS = new Set([
  'png',
  'apng',
  'mjpeg',
  'jpegls',
  'ljpeg',
  'bmp',
  'webp',
  'tiff',
  'gif',
  'jpeg2000',
  'psd',
  'qoi',
  'targa',
  'ppm',
  'pgm',
  'pam',
  'sgi',
  'dpx',
  'exr',
  'pcx',
  'xbm',
  'xpm',
]);
// ffprobe reads any text file as "tty" ASCII art with a fake 640x400 video stream: never media.
const TEXT_FORMATS = new Set([
  'tty',
  'bin',
  'xbin',
  'idf',
  'adf',
  'srt',
  'ass',
  'webvtt',
  'subviewer',
  'lrc',
  'sami',
  'jacosub',
  'microdvd',
  'mpl2',
  'pjs',
  'realtext',
  'stl',
  'subviewer1',
  'vplayer',
]);
const TEXT_CODECS = new Set(['ansi', 'bintext', 'xbin', 'idf']);

interface RawStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  duration?: string;
  nb_frames?: string;
  disposition?: { attached_pic?: number };
}
interface RawProbe {
  streams?: RawStream[];
  format?: { format_name?: string; duration?: string };
}

function num(text: string | undefined): number | null {
  if (text === undefined) return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

function rate(text: string | undefined): number | null {
  if (text === undefined) return null;
  const [a, b] = text.split('/').map(Number);
  if (a === undefined || b === undefined || !Number.isFinite(a) || !Number.isFinite(b) || a <= 0 || b <= 0) return null;
  return Math.round((a / b) * 1000) / 1000;
}

/** Pure classification of ffprobe's JSON (exported for tests). */
export function classifyProbe(json: unknown): ProbeResult {
  if (json === null || typeof json !== 'object') return null;
  const raw = json as RawProbe;
  const formatName = raw.format?.format_name ?? '';
  const formats = formatName.split(',').filter((f) => f !== '');
  if (formats.length === 0 || formats.some((f) => TEXT_FORMATS.has(f))) return null;
  const stream = (raw.streams ?? []).find(
    (s) =>
      s.codec_type === 'video' &&
      s.disposition?.attached_pic !== 1 && // cover art of an audio file is not a picture to show
      !TEXT_CODECS.has(s.codec_name ?? '') &&
      typeof s.width === 'number' &&
      typeof s.height === 'number' &&
      s.width > 0 &&
      s.height > 0,
  );
  if (stream === undefined) return null;
  const codec = stream.codec_name ?? 'unknown';
  const frames = num(stream.nb_frames);
  const duration = num(raw.format?.duration) ?? num(stream.duration);
  const imageFormat = formats.some((f) => IMAGE_FORMATS.has(f) || f.endsWith('_pipe'));
  const multiFrame = frames !== null && frames > 1;
  // An animated GIF/APNG/WebP is a clip; a one-frame picture (image2 reports one frame period as duration) is a still.
  const still = (imageFormat && !multiFrame) || (IMAGE_CODECS.has(codec) && !multiFrame && (duration === null || duration <= 0.1));
  const base = { width: stream.width as number, height: stream.height as number, codec, format: formatName };
  if (still) return { type: 'image', ...base, durationSec: null, fps: null };
  return {
    type: 'video',
    ...base,
    durationSec: duration !== null && duration > 0 ? duration : null,
    fps: rate(stream.avg_frame_rate) ?? rate(stream.r_frame_rate),
  };
}

/** Runs ffprobe on one file (execFile: no shell, bounded output, killed at the timeout). */
export function probeFile(file: string, opts: ProbeOptions = {}): Promise<ProbeResult> {
  const ffprobe = opts.ffprobe ?? 'ffprobe';
  const timeout = opts.timeoutMs ?? PROBE_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    execFile(
      ffprobe,
      ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', '--', file],
      { timeout, maxBuffer: 4 * 1024 * 1024, windowsHide: true, killSignal: 'SIGKILL' },
      (err, stdout) => {
        if (err) {
          const e = err as NodeJS.ErrnoException & { killed?: boolean };
          if (e.code === 'ENOENT') return reject(new ProbeError(`${ffprobe} not found`));
          if (e.killed) return reject(new ProbeError(`ffprobe timed out after ${timeout} ms`));
          // ffprobe exits non-zero for data it cannot read (and a 4 MiB report is no media file): not media.
          return resolve(null);
        }
        try {
          resolve(classifyProbe(JSON.parse(stdout)));
        } catch {
          resolve(null);
        }
      },
    );
  });
}
