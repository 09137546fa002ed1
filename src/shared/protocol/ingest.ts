// Messages between the main thread and the ingest worker (workers/ingest): what ffmpeg reads for a source, clip
// transport, and each source's state.
import type { RpcEnvelope } from '../rpc.js';
import type { FailureReply, LogMessage } from './common.js';

/** What ffmpeg should read for one source. */
export type IngestInput =
  | { kind: 'lavfi'; pattern: string }
  /** `audio`: the stream's first audio track is decoded into the source's PCM ring too (src/shared/pcm-ring.ts). */
  | { kind: 'url'; url: string; audio?: boolean }
  | { kind: 'v4l2'; device: string }
  /** A media file: videos loop forever; stills decode once. `audio` as for a URL (a file without a track has none). */
  | { kind: 'file'; path: string; still: boolean; audio?: boolean };

export interface IngestInit {
  /** Frames are scaled to fit this box keeping their aspect ratio. */
  maxWidth: number;
  maxHeight: number;
  fps: number;
  ffmpeg: string;
  /**
   * Stall watchdog of media files: a process that writes no frame for the longer of `fileMs` and `frames` of its
   * own frame intervals is killed and restarted (live inputs have their own, shorter watchdog).
   */
  stall: { fileMs: number; frames: number };
}

/**
 * How a clip goes on at its out point: `loop` to the in point (as media always did), `once` holds the last frame,
 * `once-black` shows black, `ping-pong` plays back to the in point and forward again (from frames kept in memory).
 */
export type ClipLoop = 'loop' | 'once' | 'once-black' | 'ping-pong';
export const CLIP_LOOPS: readonly ClipLoop[] = ['loop', 'once', 'once-black', 'ping-pong'];

/** The transport settings of a media file's reader (main keeps them per media file id). */
export interface ClipSettings {
  /** Playback speed, 0.1-4 (a tempo-synced speed arrives here already computed). */
  speed: number;
  loop: ClipLoop;
  /** In and out points in seconds; null: the clip's start and end. */
  inS: number | null;
  outS: number | null;
}

/** How a clip reader starts: its settings, the clip's length (null: unknown), and where and whether it plays. */
export interface ClipStart {
  settings: ClipSettings;
  durationS: number | null;
  positionS?: number;
  paused?: boolean;
}

export type ClipState = 'playing' | 'paused' | 'ended';

/** A clip reader's transport as of its last written frame. */
export interface ClipStatus {
  state: ClipState;
  /** Position (s) of the frame last written to the ring: the one the output shows next. */
  positionS: number;
  /** Counter of that frame in the ring (0 before the first). */
  frameNo: number;
  settings: ClipSettings;
  durationS: number | null;
}

/** A transport command to a clip reader; answered with its status once the command's frame is in the ring. */
export type ClipCommand =
  | { op: 'play' }
  | { op: 'pause' }
  | { op: 'seek'; positionS: number; play?: boolean }
  | { op: 'settings'; settings: ClipSettings };

export type MainToIngest =
  /**
   * Answered by one `open-reply` with the envelope's id. `ring`: the key's ring from a worker that died, written on by
   * the new process so its readers need no repoint; `pcm` likewise for its PCM ring.
   */
  | ({
      t: 'open';
      key: string;
      input: IngestInput;
      live: boolean;
      ring?: SharedArrayBuffer;
      pcm?: SharedArrayBuffer;
      /** A media video's transport at its start (a clip reader); absent: settings of a clip nobody changed. */
      clip?: ClipStart;
    } & RpcEnvelope)
  /** Answered by one `clip-reply`: a video file's reader under transport control. */
  | ({ t: 'clip'; key: string; cmd: ClipCommand } & RpcEnvelope)
  /** Kills the key's process (if any) and starts a new one now, with the backoff reset. */
  | { t: 'restart'; key: string }
  | { t: 'close'; key: string }
  /** Answered by `stopped` once every ffmpeg is reaped. */
  | ({ t: 'stop' } & RpcEnvelope);

export type IngestState = 'connecting' | 'live' | 'stalled' | 'retrying' | 'failed' | 'closed';

/**
 * The answer to one `open`: the key's ring (and `pcm`, the PCM ring of a source whose input asks for its audio
 * track); a FailureReply when the worker could not even create the source.
 */
export type IngestOpenReply = { t: 'open-reply'; id: number; key: string; ok: true; ring: SharedArrayBuffer; pcm?: SharedArrayBuffer };

export type IngestToMain =
  | IngestOpenReply
  /** An open or a clip command that failed, or reached the worker past its deadline (dropped undone). */
  | FailureReply
  | { t: 'state'; key: string; state: IngestState; message?: string; pid?: number }
  /** A clip reader's transport: on every change, and several times a second while it plays. */
  | { t: 'clip-status'; key: string; status: ClipStatus }
  | { t: 'clip-reply'; id: number; key: string; ok: true; status: ClipStatus }
  | { t: 'stopped'; id: number }
  | LogMessage;
