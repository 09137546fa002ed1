// Messages between the main thread and the render worker (workers/render): its set-up, the chain, sources and
// layers, thumbnails, stats, and the fused-shader compile helper's requests.
import type { OutputMap } from '../output-map.js';
import type { IsfDescriptor } from '../isf-types.js';
import type { InputState } from '../param-values.js';
import type { RpcEnvelope } from '../rpc.js';
import type { CommonReason, Failure, FailureReply, LogMessage } from './common.js';
import type { Modulator } from '../modulation.js';
import type { PixelLayout } from '../frame-ring.js';
import type { ReadbackSetting } from '../program-layout.js';

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
  /** The main thread's event-loop delay, p90 in ms (beyond the meter's own timer resolution). */
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
  /** An effect at its default inputs over the fixed test card, at render size and a fixed `time` (seconds). */
  | { kind: 'effect'; type: string; time: number }
  /** A layer's picture after its own chain, before blending (layer id as in LayerWire). */
  | { kind: 'layer'; layer: number };

/**
 * A thumbnail job: draw `subject` at width×height into `slot` (top-down RGBA rows, stride width×4). Past the
 * envelope's deadline the job is dropped undone (the route answers 503 PREVIEW_TIMEOUT).
 */
export interface ThumbJob extends RpcEnvelope {
  subject: ThumbSubject;
  width: number;
  height: number;
  /** At least width×height×4 bytes; written by the render worker, then read by an encode worker. */
  slot: SharedArrayBuffer;
}

/** `no-frame`: the ring has not delivered a frame yet; `load-failed`: the effect's shader does not compile. */
export type ThumbFailReason = CommonReason | 'no-frame' | 'load-failed';

export type ThumbReply =
  /** `frame`: the frame number drawn (output frame number, ring frame number, 0 for generators). */
  { t: 'thumb-reply'; id: number; ok: true; frame: number } | FailureReply<ThumbFailReason>;

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
  /**
   * Pixel mapping: while both are set, every frame samples the output (after dimmer and blackout) at the table's
   * points (4 floats per fixture pixel: u, v, du, dv; src/pixelmap/geometry.ts) into the block
   * (src/shared/pixel-samples.ts); either null stops it.
   */
  | { t: 'pixel-map'; samples: Float32Array | null; block: SharedArrayBuffer | null }
  /**
   * Output mapping: the mapped outputs now running, each drawn every frame through its map into its own ring (the
   * same size and layout as the program ring); an empty list stops them.
   */
  | { t: 'output-maps'; items: OutputMapItem[] }
  /**
   * Shuts the gate of scheduled operation `id` (workers/render/gate.ts): the messages after it, reads excepted, wait
   * and are handled at the start of the first frame due at or after epoch ms `at` once `gate-open` came.
   */
  | { t: 'gate'; id: string; at: number }
  /** Every message of the operation is sent: its gate may open on its frame. */
  | { t: 'gate-open'; id: string }
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

/** A chain command's failures are API error codes, passed on as they are. */
export type ChainFailReason = 'ITEM_NOT_FOUND' | 'EFFECT_LIMIT_REACHED' | 'EFFECT_LOAD_FAILED' | 'INVALID_REQUEST';

/** `inputs`: the item's inputs with their values (params, reset); `items`: the whole chain after a move. */
export type ChainDone = { ok: true; item: ChainItem; inputs?: InputState[]; items?: ChainItem[]; modulators?: Record<string, Modulator> };

/** What a chain command comes to in the worker; a failure travels as the FailureReply. */
export type ChainReply = ChainDone | Failure<ChainFailReason>;

/** `superseded`: a newer request for the bus came first; `load-failed`: the shader does not load or compile. */
export type SourceFailReason = CommonReason | 'superseded' | 'load-failed';

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
  /** A request's success; a failed request of any kind gets the FailureReply. */
  | ({ t: 'chain-reply'; id: number } & ChainDone)
  /** Applied values of modulated inputs (see LiveReport); an empty report once the last modulator is gone. */
  | ({ t: 'live' } & LiveReport)
  | { t: 'source-reply'; id: number; bus: Bus; ok: true; key: string; layer: number }
  | { t: 'shown-reply'; id: number; ok: true }
  | { t: 'mix-reply'; id: number; ok: true }
  /**
   * Any request that failed: a chain command with its API code, a source or a mix with `load-failed` (the message
   * names the file and line), a thumbnail with `no-frame`; `expired` past its deadline, nothing changed.
   */
  | FailureReply<ChainFailReason | SourceFailReason | ThumbFailReason>
  /** A take completed: the buses swapped (keys as in `source`; '' for an empty bus). */
  | { t: 'mix-swap'; program: string; preview: string; layer: number }
  | { t: 'sample-reply'; id: number; ok: true; pixels: Array<[number, number, number, number]> }
  | ThumbReply
  /** Compile results of catalog programs (compiled ahead of any add). */
  | { t: 'compiled'; type: string; kind: 'effect' | 'generator' | 'transition' | 'blend'; ok: boolean; error?: string }
  /**
   * A gate's messages were handled before output frame `frame`, due at epoch ms `dueAt`. `lateFrames`: frame slots due
   * at or after the gate's instant that passed before it (skipped, or the gate was still waiting for `gate-open`);
   * `forced`: the gate was opened by its timeout or a full buffer, not by `gate-open`.
   */
  | { t: 'gate-applied'; id: string; frame: number; dueAt: number; lateFrames: number; forced: boolean }
  /** Sent every 250 ms: the heartbeat chain reads depend on, plus render statistics. */
  | { t: 'stats'; stats: RenderStats }
  | LogMessage;

/** To the fuse compile helper process: link and draw `fragment` so Mesa's shader cache holds it. */
export interface FuseCompileRequest extends RpcEnvelope {
  fragment: string;
  /** The input filter the render thread draws it with. */
  nearest: boolean;
}
/** From the fuse compile helper: id 0 announces a ready context; a shader that does not compile, a FailureReply. */
export type FuseCompileReply = { t: 'fuse-reply'; id: number; ok: true } | FailureReply;

/** One mapped output for the render worker: its map and the ring its frames go to. */
export interface OutputMapItem {
  id: string;
  map: OutputMap;
  ring: SharedArrayBuffer;
}
