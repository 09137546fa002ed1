// Every message that crosses a thread boundary, typed in one place: main ⇄ render worker, main ⇄ ingest worker.
// Frames never travel in messages; they live in SharedArrayBuffers (src/shared/frame-ring.ts).
import type { IsfDescriptor } from './isf-types.js';

// ---------------------------------------------------------------- render worker

/** workerData of the render worker. */
export interface RenderInit {
  width: number;
  height: number;
  fps: number;
  /** Enables the test-only commands (stall). Set by the server only when VJD_TEST_HOOKS=1. */
  testHooks: boolean;
}

/** A chain item as the routes show it (spec section 2, "Effect chain item"). */
export interface ChainItem {
  index: number;
  name: string;
  type: string;
  enabled: boolean;
  presetId: string;
}

/** A chain entry as persisted: enough to rebuild the chain after a restart. */
export interface ChainEntryWire {
  type: string;
  enabled: boolean;
  presetId: string;
  inputs: Record<string, unknown>;
}

export type ChainCommand =
  | { op: 'add'; type: string; idempotent: boolean; ceiling: number; presetId: string; inputs: Record<string, unknown> }
  | { op: 'remove'; type?: string; index?: number }
  | { op: 'toggle'; name?: string; index?: number }
  | { op: 'enabled'; enabled: boolean; name?: string; index?: number };

/** What the render worker draws in its source stage. */
export type SourceSpec =
  | { kind: 'none' }
  | { kind: 'generator'; type: string; inputs: Record<string, unknown> }
  /**
   * Frames from the ingest worker's ring for this source; `live` inputs show "no signal" after 2000 ms without
   * frames. `immediate` switches before the first frame (restoring a saved source: no-signal card, not black).
   */
  | { kind: 'ring'; ring: SharedArrayBuffer; live: boolean; immediate?: boolean };

export type MainToRender =
  /** The whole catalog; `noSignal` is the card shown by live inputs without fresh frames. */
  | { t: 'catalog'; effects: IsfDescriptor[]; generators: IsfDescriptor[]; noSignal?: IsfDescriptor | null }
  | { t: 'restore'; chain: ChainEntryWire[]; ceiling: number }
  | { t: 'chain'; id: number; deadline: number; cmd: ChainCommand }
  /** Switch the source stage once the new source has drawn a frame to the output, unless `deadline` passes first. */
  | { t: 'source'; id: number; deadline: number; key: string; spec: SourceSpec }
  | { t: 'global'; blackout: boolean; dimmer: number }
  | { t: 'palette'; colors: string[] }
  /** Reads back output pixels at normalized points (0..1, origin top-left). */
  | { t: 'sample'; id: number; points: Array<[number, number]> }
  | { t: 'stall'; ms: number }
  /** Test hook: the next `frames` frames throw (drives context recovery). */
  | { t: 'fail-frames'; frames: number }
  | { t: 'stop' };

export interface RenderStats {
  targetFps: number;
  fps: number;
  frameMsP50: number;
  frameMsP99: number;
  droppedFrames: number;
  frames: number;
  renderer: string;
  /** Times the worker rebuilt its GL context after repeated frame failures. */
  contextRestarts: number;
  gl: { textures: number; programs: number; framebuffers: number; buffers: number; shaders: number; renderbuffers: number };
}

export type ChainReply =
  | { ok: true; item: ChainItem }
  | { ok: false; code: 'ITEM_NOT_FOUND' | 'EFFECT_LIMIT_REACHED' | 'EFFECT_LOAD_FAILED'; message: string; details?: Record<string, unknown> };

export type RenderToMain =
  | { t: 'ready'; renderer: string; width: number; height: number }
  | { t: 'fatal'; message: string }
  /** The newest chain; sent after every change. `entries` are in chain order, parallel to `items`. */
  | { t: 'snapshot'; version: number; items: ChainItem[]; entries: ChainEntryWire[] }
  | { t: 'chain-reply'; id: number; reply: ChainReply }
  /** The command's deadline had passed when the worker reached it: nothing was changed. */
  | { t: 'expired'; id: number }
  | { t: 'source-reply'; id: number; ok: true; key: string }
  | { t: 'source-reply'; id: number; ok: false; reason: 'expired' | 'superseded' | 'failed'; message: string }
  | { t: 'sample-reply'; id: number; pixels: Array<[number, number, number, number]> }
  /** Compile results of catalog programs (compiled ahead of any add). */
  | { t: 'compiled'; type: string; kind: 'effect' | 'generator'; ok: boolean; error?: string }
  /** Sent every 250 ms: the heartbeat chain reads depend on, plus render statistics. */
  | { t: 'stats'; stats: RenderStats }
  | { t: 'log'; level: 'info' | 'warn' | 'error'; msg: string; fields?: Record<string, unknown> };

// ---------------------------------------------------------------- ingest worker

/** What ffmpeg should read for one source. */
export type IngestInput =
  | { kind: 'lavfi'; pattern: string }
  | { kind: 'url'; url: string }
  | { kind: 'v4l2'; device: string }
  /** A media file: videos loop forever; stills decode once. */
  | { kind: 'file'; path: string; still: boolean };

export interface IngestInit {
  /** Frames are scaled to fit this box keeping their aspect ratio. */
  maxWidth: number;
  maxHeight: number;
  fps: number;
  ffmpeg: string;
}

export type MainToIngest =
  | { t: 'open'; key: string; input: IngestInput; live: boolean; preview?: boolean }
  | { t: 'close'; key: string }
  | { t: 'stop' };

export type IngestState = 'connecting' | 'live' | 'stalled' | 'retrying' | 'failed' | 'closed';

export type IngestToMain =
  | { t: 'opened'; key: string; ring: SharedArrayBuffer }
  | { t: 'state'; key: string; state: IngestState; message?: string; pid?: number }
  | { t: 'stopped' }
  | { t: 'log'; level: 'info' | 'warn' | 'error'; msg: string; fields?: Record<string, unknown> };
