// Every message that crosses a thread boundary, typed in one place: main ⇄ render worker, main ⇄ ingest worker.
// Frames never travel in messages; they live in SharedArrayBuffers (src/shared/frame-ring.ts).
import type { IsfDescriptor } from './isf-types.js';
import type { InputState } from './param-values.js';
import type { RpcEnvelope } from './rpc.js';
import type { OutputSpec } from './output-kinds/index.js';
import type { Modulator } from './modulation.js';
import type { PixelLayout } from './frame-ring.js';
import type { ReadbackSetting } from './program-layout.js';

// ---------------------------------------------------------------- render worker

/** workerData of the render worker. */
export interface RenderInit {
  width: number;
  height: number;
  fps: number;
  /** Enables the test-only commands (stall, fail-frames, slow-frames). Set by the server only when VJD_TEST_HOOKS=1. */
  testHooks: boolean;
  /** Draw runs of fusable effects as one pass (config render.fuse). */
  fuse: boolean;
  /**
   * Counters the main thread reads without a message round trip (Int32, Atomics): see RENDER_COUNTERS. Lets
   * `GET /thumbnails/current` answer 304 from a counter before any work is queued.
   */
  counters?: SharedArrayBuffer;
  /** The audio analysis block and the tempo clock block the frames read (AudioClient's); absent: audio reads 0. */
  audio?: { block: SharedArrayBuffer; tempo: SharedArrayBuffer };
  /** Spare programs kept compiled at most: effects and generators, and transitions (absent: no limit). */
  programCache?: { programs: number; transitions: number; fused: number; composed?: number };
  /** Config render.scale and render.minScale; absent: full size. */
  scale?: RenderScaleSetting;
  /** Config render.readback; absent: "auto". */
  readback?: ReadbackSetting;
}

/** A fixed factor of the output size the picture is drawn at, or "auto": chosen per frame time, not below minScale. */
export interface RenderScaleSetting {
  scale: number | 'auto';
  minScale: number;
}

/** The pipeline beyond the render, measured on the main thread over the last second. */
export interface PipelinePressure {
  /** Frames the outputs dropped because their encoder's pipe was full, in % of frames offered. */
  encodeDropPct: number;
  /** The main thread's event-loop delay, p99 in ms. */
  mainLagMs: number;
}

/** What holds an automatic render scale where it is: null at full size with nothing pressing. */
export type ScaleLimit = 'render' | 'readback' | 'encode' | 'main' | null;

/** Int32 slots of RenderInit.counters. */
export const RENDER_COUNTERS = {
  /** Frames drawn to the output so far (the output's frame number). */
  outputFrame: 0,
  /** Number of Int32 slots. */
  length: 4,
} as const;

/** What a thumbnail job asks the render worker to draw, area-averaged down to the job's size. */
export type ThumbSubject =
  /** The output target after effects, dimmer and blackout. */
  | { kind: 'output' }
  /** The newest frame of an ingest ring (its content rectangle). */
  | { kind: 'ring'; ring: SharedArrayBuffer }
  /** A generator rendered off-screen at render size, at a fixed `time` (seconds) so the image is stable. */
  | { kind: 'generator'; type: string; inputs: Record<string, unknown>; time: number }
  /** A layer's picture after its own chain, before blending (layer id as in LayerWire). */
  | { kind: 'layer'; layer: number };

/** A thumbnail job: draw `subject` at width×height into `slot` (top-down RGBA rows, stride width×4). */
export interface ThumbJob {
  id: number;
  subject: ThumbSubject;
  width: number;
  height: number;
  /** At least width×height×4 bytes; written by the render worker, then read by an encode worker. */
  slot: SharedArrayBuffer;
  /** Date.now() after which the job is dropped undone (the route answers 503 PREVIEW_TIMEOUT). */
  deadline: number;
}

export type ThumbReply =
  /** `frame`: the frame number drawn (output frame number, ring frame number, 0 for generators). */
  | { t: 'thumb-reply'; id: number; ok: true; frame: number }
  | { t: 'thumb-reply'; id: number; ok: false; reason: 'expired' | 'no-frame' | 'failed'; message: string };

/** A chain item as the routes show it (docs/api.md, Resources: "Effect chain item"). */
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
  /** Modulated inputs (`input` or `input.component`) → modulator; absent when none. */
  modulators?: Record<string, Modulator>;
}

export type ChainCommand =
  | {
      op: 'add';
      type: string;
      idempotent: boolean;
      ceiling: number;
      presetId: string;
      inputs: Record<string, unknown>;
      /** A saved look's modulators (checked by the worker against the effect's inputs). */
      modulators?: Record<string, Modulator>;
    }
  | { op: 'remove'; type?: string; index?: number }
  | { op: 'toggle'; name?: string; index?: number }
  | { op: 'enabled'; enabled: boolean; name?: string; index?: number }
  /** Merges `values` into the effect's inputs (src/shared/param-values.ts rules; all or nothing). */
  | { op: 'params'; name?: string; index?: number; values: Record<string, unknown> }
  /** Back to defaults: the named inputs, or all when `inputs` is absent. */
  | { op: 'reset'; name?: string; index?: number; inputs?: string[] }
  /** Moves the effect to position `to` (1-based); later indexes follow the new order. */
  | { op: 'move'; name?: string; index?: number; to: number }
  /** Sets (null: removes) the modulator of one input or input component (JSON already checked on the main thread). */
  | { op: 'modulate'; name?: string; index?: number; input: string; component?: string; modulator: Modulator | null };

/** Modulation outside the chain: the program generator's (for render key `key`), the T-bar, the dimmer, freeze. */
export interface ModulationState {
  generator: { key: string; modulators: Record<string, Modulator> } | null;
  mix: Modulator | null;
  dimmer: Modulator | null;
  frozen: boolean;
}

/**
 * Applied values of a recent frame, sent only while modulators exist: at a slow rate so a GET always finds a recent
 * value, at most LIVE_REPORT_HZ times a second while the main thread asks for them (live-want).
 * `effects` follows the chain order of snapshot `version`; each map holds the modulated keys only.
 */
export interface LiveReport {
  version: number;
  effects: Array<Record<string, number | boolean> | null>;
  generator: { key: string; values: Record<string, number | boolean> } | null;
  mix: number | null;
  dimmer: number | null;
}

/** What the render worker draws in its source stage. */
export type SourceSpec =
  | { kind: 'none' }
  | { kind: 'generator'; type: string; inputs: Record<string, unknown> }
  /**
   * Frames from the ingest worker's ring for this source; `live` inputs, and any ring whose reader is down, show
   * "no signal" after 2000 ms without frames. `immediate` switches before the first frame (restoring a saved
   * source: no-signal card, not black). `afterFrame` switches only on a frame newer than that ring frame number
   * (a restarted reader of the current source: the answer waits for its first new frame). Without `immediate`,
   * only a frame of the ring's current run counts (never the last frame of a connection that ended).
   */
  | { kind: 'ring'; ring: SharedArrayBuffer; live: boolean; immediate?: boolean; afterFrame?: number };

/**
 * One layer of the stack as the render worker needs it; `id` is stable for the layer's life (positions change).
 * `selected`: the layer the single-layer routes (/sources, /mix, /transport) address (a modulated T-bar moves its mixer).
 */
export interface LayerWire {
  id: number;
  opacity: number;
  blend: string;
  mute: boolean;
  solo: boolean;
  selected: boolean;
}

/** The mixer's two buses: what is on the output, and what a take brings to it. */
export type Bus = 'program' | 'preview';

/**
 * Mixer commands (program and preview buses). `take` runs `transition` from program to preview over `durationMs`
 * (0: swap on the next frame); `position` holds the transition at `value` (the T-bar; 1 completes the take).
 */
export type MixCommand = { op: 'take'; transition: string; durationMs: number } | { op: 'position'; transition: string; value: number };

export type MainToRender =
  /** The whole catalog; `noSignal` is the card shown by live inputs without fresh frames. */
  | { t: 'catalog'; effects: IsfDescriptor[]; generators: IsfDescriptor[]; noSignal?: IsfDescriptor | null }
  /** `layer`: a layer's own chain (its id); absent: the master chain. */
  | { t: 'restore'; chain: ChainEntryWire[]; ceiling: number; layer?: number }
  | ({ t: 'chain'; cmd: ChainCommand; layer?: number } & RpcEnvelope)
  /** The layer stack, bottom to top: layers with new ids are made, missing ones dropped with their sources and chains. */
  | { t: 'layers'; layers: LayerWire[] }
  /** Holds the output as it is and blends the coming frames over it with `transition` (a scene recall). */
  | { t: 'picture-transition'; transition: string; durationMs: number }
  /**
   * Puts a source on a bus once it has a frame, unless `deadline` passes first. `program`: the source stage switches
   * once the new source has drawn a frame to the output; `preview`: loaded on the preview bus, the program untouched.
   */
  | ({ t: 'source'; bus: Bus; key: string; spec: SourceSpec; layer?: number } & RpcEnvelope)
  /** Answered after the first output frame that shows the command's effect (the new source takes part in it). */
  | ({ t: 'mix'; cmd: MixCommand; layer?: number } & RpcEnvelope)
  /**
   * Answered once the program source `key` has drawn a ring frame newer than `afterFrame` to the output (a seek's
   * frame), at once when `key` is not the program; `expired` past the deadline.
   */
  | ({ t: 'shown'; key: string; afterFrame: number; layer?: number } & RpcEnvelope)
  /** The transition shaders (ISF with startImage, endImage, progress), by type. */
  | { t: 'transitions'; items: IsfDescriptor[] }
  /** The layer blend modes (ISF with baseImage, layerImage, opacity and vjdBlend), by type. */
  | { t: 'blends'; items: IsfDescriptor[] }
  /** New input values of the program generator `key` (already validated); `fire`: events set for one frame. */
  | { t: 'generator-values'; key: string; values: Record<string, unknown>; fire: string[] }
  | { t: 'global'; blackout: boolean; dimmer: number }
  | ({ t: 'modulation' } & ModulationState)
  /** Someone reads live values: report them until epoch ms `untilMs`. */
  | { t: 'live-want'; untilMs: number }
  | { t: 'palette'; colors: string[] }
  /** A reloaded render.scale or render.minScale. */
  | ({ t: 'scale' } & RenderScaleSetting)
  /** Once a second: how the rest of the pipeline keeps up (an automatic render scale follows it too). */
  | ({ t: 'pressure' } & PipelinePressure)
  /** Reads back output pixels at normalized points (0..1, origin top-left). */
  | ({ t: 'sample'; points: Array<[number, number]> } & RpcEnvelope)
  | ({ t: 'thumb' } & ThumbJob)
  | { t: 'stall'; ms: number }
  /** Test hook: the next `frames` frames throw (drives context recovery). */
  | { t: 'fail-frames'; frames: number }
  /** Test hook: the next `frames` frames each take at least `ms` longer (slow frames starve idle-time work). */
  | { t: 'slow-frames'; ms: number; frames: number }
  /**
   * While a ring is set, the program (after effects, dimmer and blackout) is read back into it once per frame for
   * the output worker; null stops the readback (no output active).
   */
  | { t: 'output-ring'; ring: SharedArrayBuffer | null }
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
  /** Spare programs compiled ahead and held now, and the most the worker keeps. */
  programs: { cached: number; limit: number };
  /** Effect passes per frame: a fused run counts one. */
  passes: number;
  /** Runs of effects drawn as one fused pass, as their types in chain order. */
  fusedRuns: string[][];
  /** Fused programs compiled and held now, and the most the worker keeps. */
  fusedPrograms: { cached: number; limit: number };
  /**
   * ISF programs compiled ahead (catalog load, spares between frames) and on demand (a stall of the frame loop);
   * pending: used spares waiting for idle time to be replaced.
   */
  programCompiles: { ahead: number; onDemand: number; pending: number };
  /** The factor of the output size the sources, chain and blends draw at now, and that size. */
  scale: number;
  renderWidth: number;
  renderHeight: number;
  /** Why the scale is where it is, with the figures the choice was made on. */
  scaleLimit: { by: ScaleLimit; frameMs: number; readbackMs: number } & PipelinePressure;
}

/** `inputs`: the item's inputs with their values (params, reset); `items`: the whole chain after a move. */
export type ChainReply =
  | { ok: true; item: ChainItem; inputs?: InputState[]; items?: ChainItem[]; modulators?: Record<string, Modulator> }
  | {
      ok: false;
      code: 'ITEM_NOT_FOUND' | 'EFFECT_LIMIT_REACHED' | 'EFFECT_LOAD_FAILED' | 'INVALID_REQUEST';
      message: string;
      details?: Record<string, unknown>;
    };

export type RenderToMain =
  /** `readback`: the program ring layout this GPU reads back best (config render.readback, or measured). */
  | {
      t: 'ready';
      renderer: string;
      width: number;
      height: number;
      readback: { layout: PixelLayout; i420Ms: number | null; rgbaMs: number | null };
    }
  | { t: 'fatal'; message: string }
  /** The newest chain; sent after every change. `entries` are in chain order, parallel to `items`. */
  | { t: 'snapshot'; version: number; items: ChainItem[]; entries: ChainEntryWire[]; layer?: number }
  | { t: 'chain-reply'; id: number; reply: ChainReply }
  /** Applied values of modulated inputs (see LiveReport); an empty report once the last modulator is gone. */
  | ({ t: 'live' } & LiveReport)
  /** The command's deadline had passed when the worker reached it: nothing was changed. */
  | { t: 'expired'; id: number }
  | { t: 'source-reply'; id: number; bus: Bus; ok: true; key: string; layer: number }
  /** `load-failed`: the generator's shader does not load or compile (the message names the file and line). */
  | { t: 'source-reply'; id: number; bus: Bus; ok: false; reason: 'expired' | 'superseded' | 'failed' | 'load-failed'; message: string }
  | { t: 'shown-reply'; id: number; ok: true }
  | { t: 'shown-reply'; id: number; ok: false; message: string }
  | { t: 'mix-reply'; id: number; ok: true }
  /** `loadFailed`: the transition's shader does not load or compile. */
  | { t: 'mix-reply'; id: number; ok: false; message: string; loadFailed?: boolean }
  /** A take completed: the buses swapped (keys as in `source`; '' for an empty bus). */
  | { t: 'mix-swap'; program: string; preview: string; layer: number }
  | { t: 'sample-reply'; id: number; pixels: Array<[number, number, number, number]> }
  | ThumbReply
  /** Compile results of catalog programs (compiled ahead of any add). */
  | { t: 'compiled'; type: string; kind: 'effect' | 'generator' | 'transition' | 'blend'; ok: boolean; error?: string }
  /** Sent every 250 ms: the heartbeat chain reads depend on, plus render statistics. */
  | { t: 'stats'; stats: RenderStats }
  | { t: 'log'; level: 'info' | 'warn' | 'error'; msg: string; fields?: Record<string, unknown> };

/** To the fuse compile helper process: link and draw `fragment` so Mesa's shader cache holds it. */
export interface FuseCompileRequest extends RpcEnvelope {
  fragment: string;
  /** The input filter the render thread draws it with. */
  nearest: boolean;
}
/** From the fuse compile helper: id 0 announces a ready context; `error` is the compile error, null when it compiled. */
export interface FuseCompileReply {
  id: number;
  error: string | null;
}

// ---------------------------------------------------------------- ingest worker

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
 * track), or why the worker could not even create the source.
 */
export type IngestOpenReply = { t: 'open-reply'; id: number; key: string } & (
  | { ok: true; ring: SharedArrayBuffer; pcm?: SharedArrayBuffer }
  | { ok: false; message: string }
);

export type IngestToMain =
  | IngestOpenReply
  /** A request that reached the worker past its deadline, dropped undone. */
  | { t: 'expired'; id: number }
  | { t: 'state'; key: string; state: IngestState; message?: string; pid?: number }
  /** A clip reader's transport: on every change, and several times a second while it plays. */
  | { t: 'clip-status'; key: string; status: ClipStatus }
  | ({ t: 'clip-reply'; id: number; key: string } & ({ ok: true; status: ClipStatus } | { ok: false; message: string }))
  | { t: 'stopped'; id: number }
  | { t: 'log'; level: 'info' | 'warn' | 'error'; msg: string; fields?: Record<string, unknown> };

// ---------------------------------------------------------------- encode pool (piscina tasks, workers/encode)

export type ImageFormat = 'png' | 'jpg';

export type EncodeTask =
  /** Encodes width×height top-down RGBA pixels from `pixels` (a thumbnail slot). */
  | { op: 'encode'; pixels: SharedArrayBuffer; width: number; height: number; format: ImageFormat }
  /** A placeholder card: `title` (large) and `subtitle` (small) rendered with the font shipped in assets/fonts. */
  | { op: 'placeholder'; width: number; height: number; title: string; subtitle: string; format: ImageFormat }
  /** Palette swatches: equal-width vertical bars in palette order, left to right. */
  | { op: 'palette'; colors: string[]; width: number; height: number; format: ImageFormat }
  /** Resizes an image file vjd wrote itself (a cached media poster) to exactly width×height and encodes it. */
  | { op: 'file'; path: string; width: number; height: number; format: ImageFormat }
  /**
   * The newest program frame of the output ring (bottom-up RGBA, render size), area-averaged down to width×height
   * and encoded as JPEG; nothing (empty bytes) when the ring has no frame newer than `after` or the frame was torn.
   */
  | { op: 'program'; ring: SharedArrayBuffer; after: number; width: number; height: number }
  /**
   * An output thumbnail from the output ring's newest frame (bottom-up RGBA, render size), area-averaged down to
   * width×height and encoded as `format`; empty bytes when the ring has no frame or it was torn.
   */
  | { op: 'program-thumb'; ring: SharedArrayBuffer; width: number; height: number; format: ImageFormat };

/** What an encode task returns: the encoded image bytes. */
export interface EncodeResult {
  bytes: Uint8Array;
  /** Milliseconds spent encoding inside the worker. */
  ms: number;
  /** ops `program` and `program-thumb`: the ring frame encoded (or `after` when nothing was). */
  frameNo?: number;
}

// ---------------------------------------------------------------- output worker (workers/output)

/** The output kinds and their specs come from their descriptors (src/shared/output-kinds/). */
export type { OutputKind, OutputSpec } from './output-kinds/index.js';
/** `failed`: the target (X display, video device) is not there; re-checked every few seconds, never a crash. */
export type OutputState = 'stopped' | 'starting' | 'running' | 'retrying' | 'failed';

export interface OutputInit {
  ffmpeg: string;
  /** The program ring the render worker fills (render size, bottom-up rows as GL reads them). */
  ring: SharedArrayBuffer;
}

export type MainToOutput =
  /**
   * Starts (or restarts with a new spec) the consumer `id`. `gen` grows with every start of any output: replies
   * carry the gen of the run they describe, so a late message from an older run is told apart.
   */
  { t: 'start'; id: string; gen: number; spec: OutputSpec } | { t: 'stop-output'; id: string } | { t: 'stop' };

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
  | { t: 'log'; level: 'info' | 'warn' | 'error'; msg: string; fields?: Record<string, unknown> };

// ---------------------------------------------------------------- audio worker (workers/audio)

/**
 * An audio input as the worker opens it. `test`: `source` is a lavfi audio graph from the config file only.
 * `stream`: a URL from the config file the worker's own ffmpeg reads. `ring`: samples an ingest reader decodes
 * into a PCM ring (src/shared/pcm-ring.ts), or null while there is none (silence); `follows` says whose ring it is:
 * a shared stream reader, or whichever reader is on the program. `alsa`, `pulse`: a capture device name, checked
 * against a whitelist pattern (DEVICE_PATTERN) before it gets here.
 */
export type AudioInput =
  | { id: string; kind: 'test'; source: string }
  | { id: string; kind: 'stream'; url: string }
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
  | { op: 'offset'; ms: number };

export type AudioState = 'stopped' | 'starting' | 'running' | 'retrying';

export type MainToAudio =
  /** Opens `input` (replacing the one open), or closes it when null; answered once the choice is in force. */
  | ({ t: 'select'; input: AudioInput | null } & RpcEnvelope)
  /** Changes the tempo clock as of `at` (epoch ms, stamped when the request reached the main thread); answered `done`. */
  | ({ t: 'tempo'; cmd: TempoCommand; at: number } & RpcEnvelope)
  /** A fixed analysis gain, or null for the automatic one; answered `done`. */
  | ({ t: 'gain'; gain: number | null } & RpcEnvelope)
  /** Ends the ffmpeg child; answered `stopped`. */
  | ({ t: 'stop' } & RpcEnvelope);

export type AudioToMain =
  | { t: 'selected'; id: number }
  | { t: 'done'; id: number }
  | { t: 'stopped'; id: number }
  | { t: 'state'; input: string | null; state: AudioState; message?: string; pid?: number; restarts?: number }
  /** The worker thread's kernel thread id, sent once at start (its CPU time is read from /proc by the cost bench). */
  | { t: 'thread'; tid: number }
  | { t: 'log'; level: 'info' | 'warn' | 'error'; msg: string; fields?: Record<string, unknown> };
