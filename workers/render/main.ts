// Render worker entry: owns the one headless-gl context of the process, the effects chain and the frame loop.
// Every message is typed in src/shared/messages.ts; chain commands past their deadline are dropped unapplied.
import { parentPort, workerData } from 'node:worker_threads';
import { lowerThisThread, THREAD_NICE } from '../../src/shared/thread-priority.js';
import {
  RENDER_COUNTERS,
  type Bus,
  type LayerWire,
  type MainToRender,
  type ModulationState,
  type RenderInit,
  type RenderScaleSetting,
  type RenderToMain,
  type SourceSpec,
} from '../../src/shared/protocol/render.js';
import { expired } from '../../src/shared/rpc.js';
import { failure, logTo, replyFailure } from '../../src/shared/protocol/common.js';
import { RenderEngine } from './engine.js';
import { trackGl } from './gl-tracker.js';
import { dialectEvents } from './glsl-dialect/retry.js';
import { RenderGate } from './gate.js';

const port = parentPort!;
const init = workerData as RenderInit;
// Drawing yields a core to the main thread whenever both want one: control surfaces never wait on the picture.
lowerThisThread(THREAD_NICE.render);
const post = (m: RenderToMain): void => port.postMessage(m);
const log = logTo(post);
dialectEvents.onRewrite = (fields) => log('info', 'ISF shader compiled after the desktop-GLSL rewrite', fields);
/** Shared with the main thread and handed to every engine, so a rebuilt context keeps counting where it stopped. */
const counters = init.counters ? new Int32Array(init.counters, 0, RENDER_COUNTERS.length) : null;

function fatal(message: string): void {
  post({ t: 'fatal', message });
}

/** Consecutive failed frames (about 1 s at 30 fps) after which the context is rebuilt. */
const RECOVER_AFTER = 30;
const { default: createGL } = await import('gl');

/** What a rebuilt context needs to continue where the old one stopped. */
const kept: {
  catalog: Extract<MainToRender, { t: 'catalog' }> | null;
  global: { blackout: boolean; dimmer: number };
  palette: string[];
  /** Per layer id: the program source and the preview bus (swapped when a take completes). */
  buses: Map<number, Buses>;
  layers: LayerWire[] | null;
  transitions: Extract<MainToRender, { t: 'transitions' }> | null;
  blends: Extract<MainToRender, { t: 'blends' }> | null;
  outputRing: SharedArrayBuffer | null;
  pixelMap: Omit<Extract<MainToRender, { t: 'pixel-map' }>, 't'>;
  outputMaps: Extract<MainToRender, { t: 'output-maps' }>['items'];
  modulation: ModulationState;
  scale: RenderScaleSetting | undefined;
  liveUntil: number;
} = {
  catalog: null,
  global: { blackout: false, dimmer: 1 },
  palette: [],
  buses: new Map(),
  layers: null,
  transitions: null,
  blends: null,
  outputRing: null,
  pixelMap: { samples: null, block: null },
  outputMaps: [],
  modulation: { generator: null, mix: null, dimmer: null, frozen: false },
  scale: init.scale,
  liveUntil: 0,
};
interface Buses {
  source: { key: string; spec: SourceSpec } | null;
  cue: { key: string; spec: SourceSpec } | null;
}
const busesOf = (layer: number): Buses => {
  let b = kept.buses.get(layer);
  if (!b) kept.buses.set(layer, (b = { source: null, cue: null }));
  return b;
};
/** Source requests by id until the engine answers them; the one that succeeds becomes its layer's source or cue. */
const requested = new Map<number, { key: string; spec: SourceSpec }>();
let contextRestarts = 0;
let failedInARow = 0;

/** Creates a GL context and an engine on it; the only place headless-gl contexts are made. */
function createEngine(): RenderEngine {
  const gl = createGL(init.width, init.height, { preserveDrawingBuffer: false, antialias: false, depth: false, stencil: false });
  if (!gl) throw new Error('headless-gl could not create a context (no X display or no GLX)');
  trackGl(gl);
  const renderer = `${String(gl.getParameter(gl.RENDERER))} / ${String(gl.getParameter(gl.VERSION))}`;
  const e = new RenderEngine(gl, init.width, init.height, init.fps, renderer, counters, {
    fuse: init.fuse,
    compileHelper: true,
    audio: init.audio,
    ...(init.programCache ? { programCache: init.programCache } : {}),
    ...(kept.scale ? { scale: kept.scale } : {}),
  });
  e.fuse.onLog = (msg, fields) => log('warn', msg, fields);
  const answer = (bus: Bus, o: Parameters<RenderEngine['onSource']>[0]): void => {
    const req = requested.get(o.id);
    requested.delete(o.id);
    if (o.ok && req) busesOf(o.layer)[bus === 'program' ? 'source' : 'cue'] = req;
    if (o.ok) post({ t: 'source-reply', id: o.id, bus, ok: true, key: o.key, layer: o.layer });
    else post(failure(o.id, o.reason ?? 'failed', o.message ?? 'failed'));
  };
  e.onSource = (o) => answer('program', o);
  e.onCue = (o) => answer('preview', o);
  e.onMix = (id, error, loadFailed) =>
    post(error === null ? { t: 'mix-reply', id, ok: true } : failure(id, loadFailed ? 'load-failed' : 'failed', error));
  e.onShown = (id, error) => post(error === null ? { t: 'shown-reply', id, ok: true } : failure(id, 'failed', error));
  e.onSwap = (layer, program, preview) => {
    const b = busesOf(layer);
    const old = b.source;
    b.source = b.cue;
    b.cue = old;
    post({ t: 'mix-swap', program, preview, layer });
  };
  e.modulation.onLive = (r) => post({ t: 'live', ...r, version: masterVersion });
  e.beforeDraw = (due) => gate.beforeFrame(due);
  let lastError = '';
  e.onFrame = (error) => {
    gate.afterFrame(counters ? Atomics.load(counters, RENDER_COUNTERS.outputFrame) : 0);
    if (error === null) {
      failedInARow = 0;
      return;
    }
    if (error !== lastError) {
      lastError = error; // logged once per distinct error, not 30 times a second
      log('error', 'frame failed', { err: error });
    }
    if (++failedInARow >= RECOVER_AFTER) queueMicrotask(recover);
  };
  return e;
}

/**
 * Frames keep failing: drop the context and build a new one with the same catalog, chain, source, palette and
 * globals, instead of leaving the output frozen until someone restarts the process.
 */
function recover(): void {
  if (failedInARow < RECOVER_AFTER) return;
  failedInARow = 0;
  const entries = engine.chain.entries();
  const layerChains = new Map(engine.stack().map((l) => [l.id, l.chain.entries()] as const));
  const old = engine;
  try {
    old.destroy();
  } catch {
    // a broken context may refuse to clean up; it is dropped either way
  }
  old.releaseContext();
  try {
    engine = createEngine();
  } catch (err) {
    fatal(`render context could not be recreated: ${(err as Error).message}`);
    process.exit(1);
  }
  contextRestarts++;
  engine.contextRestarts = contextRestarts;
  if (kept.catalog) engine.setCatalog(kept.catalog.effects, kept.catalog.generators, kept.catalog.noSignal ?? null);
  engine.chain.restore(entries, Number.MAX_SAFE_INTEGER);
  if (kept.layers) engine.setLayers(kept.layers);
  for (const l of engine.stack()) l.chain.restore(layerChains.get(l.id) ?? [], Number.MAX_SAFE_INTEGER);
  engine.output.blackout = kept.global.blackout;
  engine.output.dimmer = kept.global.dimmer;
  engine.setPalette(kept.palette);
  engine.modulation.set(kept.modulation);
  engine.modulation.wantUntil = kept.liveUntil;
  engine.setOutputRing(kept.outputRing);
  engine.setPixelMap(kept.pixelMap.samples, kept.pixelMap.block);
  engine.setOutputMaps(kept.outputMaps);
  if (kept.transitions) engine.setTransitions(kept.transitions.items);
  if (kept.blends) engine.setBlends(kept.blends.items);
  const again = (spec: SourceSpec): SourceSpec => (spec.kind === 'ring' ? { ...spec, immediate: true } : spec);
  for (const l of engine.stack()) {
    const b = kept.buses.get(l.id);
    if (b?.cue) engine.requestCue(0, b.cue.key, Number.MAX_SAFE_INTEGER, again(b.cue.spec), l.id);
    if (b?.source) engine.requestSource(0, b.source.key, Number.MAX_SAFE_INTEGER, again(b.source.spec), l.id);
  }
  engine.start();
  log('warn', 'render context recreated after repeated frame failures', { contextRestarts });
}

let engine: RenderEngine;
try {
  engine = createEngine();
  const readback = engine.chooseReadback(init.readback ?? 'auto');
  post({ t: 'ready', renderer: engine.renderer, width: init.width, height: init.height, readback });
} catch (err) {
  fatal((err as Error).message);
  throw err;
}

let snapshotVersion = 0;
/** The master chain's newest snapshot: live reports describe the master chain, whatever layer chain changed since. */
let masterVersion = 0;
/** Posts the master chain (no layer) or a layer's chain after a change. */
function publishChain(layer?: number): void {
  snapshotVersion++;
  if (layer === undefined) masterVersion = snapshotVersion;
  const chain = layer === undefined ? engine.chain : engine.layer(layer).chain;
  post({
    t: 'snapshot',
    version: snapshotVersion,
    items: chain.items(),
    entries: chain.entries(),
    ...(layer !== undefined ? { layer } : {}),
  });
}

const statsTimer = setInterval(() => post({ t: 'stats', stats: engine.snapshotStats() }), 250);

/** Scheduled operations' messages wait here for their frame (gate.ts). */
const gate = new RenderGate({
  handle: (m) => handleSafely(m),
  post,
  warn: (message, fields) => log('warn', message, fields),
  period: 1000 / init.fps,
});

port.on('message', (m: MainToRender) => {
  if (!gate.take(m)) handleSafely(m);
});

function handleSafely(m: MainToRender): void {
  try {
    handle(m);
  } catch (err) {
    // A GL or program error answers the one command; the worker and its frame loop keep running.
    log('error', 'render command failed', { command: m.t, err: (err as Error).message });
    // A chain command that throws answers as an effect that does not load would.
    if ('id' in m && typeof m.id === 'number') replyFailure(post, m.id, err, m.t === 'chain' ? 'EFFECT_LOAD_FAILED' : 'failed');
  }
}

function handle(m: MainToRender): void {
  switch (m.t) {
    case 'catalog': {
      kept.catalog = m;
      for (const r of engine.setCatalog(m.effects, m.generators, m.noSignal ?? null)) {
        post({ t: 'compiled', type: r.type, kind: r.kind, ok: r.ok, ...(r.error !== undefined ? { error: r.error } : {}) });
      }
      return;
    }
    case 'restore': {
      const problems = (m.layer === undefined ? engine.chain : engine.layer(m.layer).chain).restore(m.chain, m.ceiling);
      for (const p of problems) log('warn', 'a saved chain entry was not restored', { problem: p });
      publishChain(m.layer);
      return;
    }
    case 'chain': {
      if (expired(m)) {
        post(failure(m.id, 'expired', 'the command reached the renderer past its deadline'));
        return;
      }
      const chain = m.layer === undefined ? engine.chain : engine.layer(m.layer).chain;
      const before = chain.version;
      const reply = chain.apply(m.cmd);
      if (chain.version !== before) publishChain(m.layer);
      post(reply.ok ? { t: 'chain-reply', id: m.id, ...reply } : { t: 'failure', id: m.id, ...reply });
      return;
    }
    case 'source':
      requested.set(m.id, { key: m.key, spec: m.spec });
      if (m.bus === 'program') engine.requestSource(m.id, m.key, m.deadline, m.spec, m.layer);
      else engine.requestCue(m.id, m.key, m.deadline, m.spec, m.layer);
      return;
    case 'mix':
      engine.mixCommand(m.id, m.cmd, m.layer);
      return;
    case 'shown':
      engine.waitShown(m.id, m.key, m.afterFrame, m.deadline, m.layer);
      return;
    case 'picture-transition':
      engine.startPicture(m.transition, m.durationMs);
      return;
    case 'layers':
      kept.layers = m.layers;
      for (const id of kept.buses.keys()) if (!m.layers.some((l) => l.id === id)) kept.buses.delete(id);
      engine.setLayers(m.layers);
      return;
    case 'modulation': {
      const { t: _t, ...s } = m;
      kept.modulation = s;
      engine.modulation.set(s);
      return;
    }
    case 'live-want':
      kept.liveUntil = m.untilMs;
      engine.modulation.wantUntil = m.untilMs;
      return;
    case 'transitions':
      kept.transitions = m;
      // Reported like the catalog's programs, so the main thread lists them among the files that did not load.
      for (const r of engine.setTransitions(m.items)) {
        post({ t: 'compiled', type: r.type, kind: 'transition', ok: r.ok, ...(r.error !== undefined ? { error: r.error } : {}) });
      }
      return;
    case 'blends':
      kept.blends = m;
      for (const r of engine.setBlends(m.items)) {
        post({ t: 'compiled', type: r.type, kind: 'blend', ok: r.ok, ...(r.error !== undefined ? { error: r.error } : {}) });
      }
      return;
    case 'generator-values': {
      // Every layer showing this generator takes the values; a rebuilt context brings them back (events excluded).
      for (const l of engine.stack()) {
        if (!l.source.setGeneratorValues(m.key, m.values, m.fire)) continue;
        const b = busesOf(l.id);
        const k = b.source;
        if (k?.key === m.key && k.spec.kind === 'generator') {
          const inputs = { ...m.values };
          for (const name of m.fire) delete inputs[name];
          b.source = { key: k.key, spec: { ...k.spec, inputs } };
        }
      }
      return;
    }
    case 'global':
      kept.global = { blackout: m.blackout, dimmer: m.dimmer };
      engine.output.blackout = m.blackout;
      engine.output.dimmer = m.dimmer;
      return;
    case 'palette':
      kept.palette = m.colors;
      engine.setPalette(m.colors);
      return;
    case 'scale':
      kept.scale = { scale: m.scale, minScale: m.minScale };
      engine.setScale(kept.scale);
      return;
    case 'pressure':
      engine.pressure(m);
      return;
    case 'output-ring':
      kept.outputRing = m.ring;
      engine.setOutputRing(m.ring);
      return;
    case 'pixel-map':
      kept.pixelMap = { samples: m.samples, block: m.block };
      engine.setPixelMap(m.samples, m.block);
      return;
    case 'output-maps':
      kept.outputMaps = m.items;
      engine.setOutputMaps(m.items);
      return;
    case 'sample':
      post({ t: 'sample-reply', id: m.id, ok: true, pixels: engine.output.sample(m.points) });
      return;
    case 'thumb':
      engine.queueThumb(m, post);
      return;
    case 'fail-frames':
      // Test hook: the next `frames` frames throw, as a broken context would. Refused unless hooks are enabled.
      if (init.testHooks) engine.failFrames = Math.min(m.frames, 1000);
      return;
    case 'slow-frames':
      // Test hook: frames run long, as with a heavy chain on a loaded machine. Refused unless hooks are enabled.
      if (init.testHooks) engine.slowFrames = { ms: Math.min(m.ms, 2000), frames: Math.min(m.frames, 10_000) };
      return;
    case 'stall':
      if (init.testHooks) {
        // Test hook: blocks this thread to prove CHAIN_BUSY semantics. Refused unless hooks are enabled.
        const until = Date.now() + Math.min(m.ms, 10_000);
        while (Date.now() < until) {
          /* busy */
        }
      }
      return;
    case 'stop':
      clearInterval(statsTimer);
      engine.destroy();
      port.close();
      return;
  }
}

engine.start();
