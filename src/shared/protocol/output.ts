// Messages between the main thread and the output worker (workers/output): starting and stopping consumers, their
// states and counters.
import type { OutputSpec } from '../output-kinds/index.js';
import type { LogMessage } from './common.js';

/** The output kinds and their specs come from their descriptors (src/shared/output-kinds/). */
export type { OutputKind, OutputSpec } from '../output-kinds/index.js';
/** `failed`: the target (X display, video device) is not there; re-checked every few seconds, never a crash. */
export type OutputState = 'stopped' | 'starting' | 'running' | 'retrying' | 'failed';

export interface OutputInit {
  ffmpeg: string;
  /** The program ring the render worker fills (render size, in its layout: I420 upright or RGBA bottom-up). */
  ring: SharedArrayBuffer;
}

export type MainToOutput =
  /**
   * Starts (or restarts with a new spec) the consumer `id`. `gen` grows with every start of any output: replies
   * carry the gen of the run they describe, so a late message from an older run is told apart.
   */
  | { t: 'start'; id: string; gen: number; spec: OutputSpec }
  | { t: 'stop-output'; id: string }
  /**
   * Output mapping: the outputs that read their own ring (the render worker draws each one's map into it) instead
   * of the program ring; sent before a start that needs it, and again whenever the set changes.
   */
  | { t: 'map-rings'; rings: Array<{ id: string; ring: SharedArrayBuffer }> }
  | { t: 'stop' };

export interface OutputCounters {
  framesSent: number;
  framesDropped: number;
  framesRepeated: number;
  restarts: number;
}

export type OutputToMain =
  /** `file`: the recording being written (record kind), `startedAt`: ISO time the current ffmpeg started. */
  /** `size`: the window a display output opened (its screen decides it when not configured). */
  | {
      t: 'state';
      id: string;
      gen: number;
      state: OutputState;
      lastError: string | null;
      startedAt: string | null;
      file?: string;
      pid?: number;
      size?: { width: number; height: number };
      /** A stream output: the shared encoder its stream comes from (outputs with the same settings share one). */
      encoder?: string;
    }
  /** Sent every 250 ms while consumers exist. */
  | { t: 'counters'; items: Array<{ id: string; gen: number } & OutputCounters> }
  | { t: 'stopped' }
  | LogMessage;
