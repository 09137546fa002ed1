// Messages between the main thread and the audio worker (workers/audio): inputs, the analysis and the tempo clock.
import type { RpcEnvelope } from '../rpc.js';
import type { LogMessage } from './common.js';

/**
 * An audio input as the worker opens it. `test`: `source` is a lavfi audio graph from the config file only.
 * `stream`: a URL (or a media file) the worker's own ffmpeg reads. `ring`: samples an ingest reader decodes
 * into a PCM ring (src/shared/pcm-ring.ts), or null while there is none (silence); `follows` says whose ring it is:
 * a shared stream reader, or whichever reader is on the program. `alsa`, `pulse`: a capture device name, checked
 * against a whitelist pattern (DEVICE_PATTERN) before it gets here.
 */
export type AudioInput =
  | { id: string; kind: 'test'; source: string }
  /** `protocols`: ffmpeg's protocol whitelist, set for a URL or file that came over the network. */
  | { id: string; kind: 'stream'; url: string; protocols?: string }
  | { id: string; kind: 'ring'; follows: 'stream' | 'program'; pcm: SharedArrayBuffer | null }
  | { id: string; kind: 'alsa' | 'pulse'; device: string };

export interface AudioInit {
  ffmpeg: string;
  /** The analysis block (src/shared/audio-block.ts) the worker writes and the main thread reads. */
  block: SharedArrayBuffer;
  /** The tempo clock block (src/shared/tempo-block.ts) the worker owns and every thread reads. */
  tempo: SharedArrayBuffer;
  sampleRate: number;
  hop: number;
  retry: { firstMs: number; maxMs: number; stableMs: number };
  stallMs: number;
  /** A fixed gain instead of the automatic one (config audio.gain, then POST /audio/settings), or null. */
  gain: number | null;
  tempoInit: TempoInit;
}

/** What the clock needs beyond the tempo block it starts from (the block outlives a restarted worker). */
export interface TempoInit {
  limits: { bpmMin: number; bpmMax: number; tapResetMs: number; tapIntervals: number };
  /** The BPM the `manual` source plays; null: the block's. */
  manualBpm: number | null;
}

/** One change of the tempo clock; values are checked on the main thread before they cross. */
export type TempoCommand =
  | { op: 'tap' }
  | { op: 'bpm'; bpm: number }
  | { op: 'resync' }
  | { op: 'nudge'; ms: number }
  | { op: 'multiply'; factor: 0.5 | 2 }
  | { op: 'source'; source: 'auto' | 'tap' | 'manual' }
  | { op: 'range'; min: number; max: number }
  | { op: 'offset'; ms: number }
  /** Takes another box's clock as it is (a show's leader): its tempo and beat grid on the shared wall clock. */
  | { op: 'lock'; bpm: number; refTime: number; refBeat: number; beatsPerBar: number };

export type AudioState = 'stopped' | 'starting' | 'running' | 'retrying';

export type MainToAudio =
  /** Opens `input` (replacing the one open), or closes it when null; answered once the choice is in force. */
  | ({ t: 'select'; input: AudioInput | null } & RpcEnvelope)
  /** Changes the tempo clock as of `at` (epoch ms, stamped when the request reached the main thread); answered `done`. */
  | ({ t: 'tempo'; cmd: TempoCommand; at: number } & RpcEnvelope)
  /** A fixed analysis gain, or null for the automatic one; answered `done`. */
  | ({ t: 'gain'; gain: number | null } & RpcEnvelope)
  /** Runs the LTC reader on `input`'s channel (1-based), or stops it when null; not answered (frames follow). */
  | { t: 'ltc'; input: LtcInput | null; channel: number }
  /** Ends the ffmpeg child; answered `stopped`. */
  | ({ t: 'stop' } & RpcEnvelope);

/** An input the LTC reader opens with its own ffmpeg (never a ring: it needs one channel of the source). */
export type LtcInput = Exclude<AudioInput, { kind: 'ring' }>;

/** One LTC frame as decoded: the label, its rate, direction, and the instant (clockNow base) its last bit ended. */
export interface LtcWireFrame {
  hours: number;
  minutes: number;
  seconds: number;
  frames: number;
  rate: 24 | 25 | 29.97 | 30;
  reverse: boolean;
  atMs: number;
}

export type AudioToMain =
  | { t: 'selected'; id: number }
  | { t: 'done'; id: number }
  | { t: 'stopped'; id: number }
  | { t: 'state'; input: string | null; state: AudioState; message?: string; pid?: number; restarts?: number }
  /** The worker thread's kernel thread id, sent once at start (its CPU time is read from /proc by the cost bench). */
  | { t: 'thread'; tid: number }
  /** LTC frames decoded in one hop, with the decoder's running count of refused words; `state` as an input's. */
  | { t: 'ltc'; frames: LtcWireFrame[]; rejected: number; state?: AudioState; message?: string }
  | LogMessage;
