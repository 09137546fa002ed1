// The render side of the show: the render worker itself, the shader catalog it compiles, the saved master chain it
// comes back with, and the memo GET /status reads its figures through. Order matters here: the worker starts before
// the catalog is read (compile results come back as `compiled` events, so that listener goes on before the catalog
// starts), and the saved chain is restored, awaited, before anything else can edit it.
import { join } from 'node:path';
import type { LoadedConfig } from '../config/load.js';
import type { Config } from '../config/schema.js';
import type { Logger } from '../log.js';
import type { ShowState, StateStore } from '../state/store.js';
import type { Display } from '../workers/xvfb.js';
import { RenderClient } from '../workers/render-client.js';
import type { AudioClient } from '../workers/audio-client.js';
import { Catalog, catalogList, type CatalogSnapshot } from '../catalog/catalog.js';
import type { RenderStatus } from '../api/status.js';
import { ISF_CACHE_LIMITS } from '../limits.js';
import type { PressureMeter } from './pipeline-pressure.js';

/** Program cache sizes of the render worker, also the limits GET /status reports beside its counts. */
export const PROGRAM_CACHE = {
  programs: ISF_CACHE_LIMITS.programCacheMax,
  transitions: ISF_CACHE_LIMITS.transitionCacheMax,
  fused: ISF_CACHE_LIMITS.fusedCacheMax,
  composed: ISF_CACHE_LIMITS.composeCacheMax,
};

export interface RenderDeps {
  cfg: Config;
  display: Display;
  /** Made first (it starts nothing yet): the render worker gets its analysis and tempo blocks. */
  audioClient: AudioClient;
  log: Logger;
  onFatal: (m: string) => void;
}

/** Starts the render worker on the display; resolves once it is ready. */
export async function startRender(d: RenderDeps): Promise<RenderClient> {
  const { cfg, log } = d;
  const render = new RenderClient(
    {
      audio: { block: d.audioClient.sharedBlock, tempo: d.audioClient.tempoBlock },
      width: cfg.render.width,
      height: cfg.render.height,
      fps: cfg.render.fps,
      fuse: cfg.render.fuse,
      scale: { scale: cfg.render.scale, minScale: cfg.render.minScale },
      readback: cfg.render.readback,
      programCache: PROGRAM_CACHE,
      testHooks: process.env.VJD_TEST_HOOKS === '1',
    },
    log,
    d.onFatal,
  );
  await render.start(d.display.name);
  log.info({ renderer: render.renderer, width: cfg.render.width, height: cfg.render.height, fps: cfg.render.fps }, 'render worker ready');
  return render;
}

/** Hands the render worker what a catalog snapshot installs: effects, generators, no-signal, transitions, blends. */
export function installCatalog(render: RenderClient, s: CatalogSnapshot): void {
  render.setCatalog(s.effects, s.generators, s.noSignal);
  render.setTransitions(s.transitions);
  render.setBlends(s.blends);
}

export interface CatalogDeps {
  loaded: LoadedConfig;
  render: RenderClient;
  log: Logger;
}

/** Reads the catalog and installs it in the render worker; its `change` is wired later, by the show. */
export async function startCatalog(d: CatalogDeps): Promise<{ catalog: Catalog; presetsDir: string }> {
  const { loaded, render, log } = d;
  const presetsDir = join(loaded.paths.dataDir, 'presets');
  // Saved presets come last, so one saved under the name of a built-in (overwrite) replaces it.
  const catalog = new Catalog(
    {
      effects: loaded.paths.effectsDirs,
      sources: loaded.paths.sourcesDirs,
      presets: [...loaded.paths.presetsDirs, presetsDir],
      transitions: loaded.paths.transitionsDirs,
      blends: loaded.paths.blendsDirs,
    },
    log,
  );
  render.on('compiled', (r) => {
    catalog.compiled(r);
    if (!r.ok) {
      const s = catalog.snapshot;
      const file = catalogList(s, r.kind).find((d) => d.type === r.type)?.file;
      log.error(
        { type: r.type, kind: r.kind, file, error: r.error },
        'shader does not compile; it stays in the catalog and fails when used (GET /catalog/errors)',
      );
    }
  });
  await catalog.start();
  installCatalog(render, catalog.snapshot);
  return { catalog, presetsDir };
}

/** Brings back the saved master chain and blackout/dimmer, and saves the chain whenever the worker reports it. */
export async function restoreRender(render: RenderClient, state: StateStore, saved: Readonly<ShowState>): Promise<void> {
  // The saved chain comes back whole even if the license tier went down since; only new adds meet the new ceiling.
  // Awaited: the port opens only once the chain reads what was saved, never an empty chain that fills up later.
  await render.restore(
    saved.chain.map((e) => ({ ...e })),
    Number.MAX_SAFE_INTEGER,
  );
  render.setGlobal(saved.blackout, saved.dimmer);
  render.on('snapshot', (snap) => {
    state.update((s) => {
      s.chain = snap.entries;
    });
  });
}

export interface RenderStatusDeps {
  cfg: Config;
  render: RenderClient;
  display: Display;
  pressure: PressureMeter;
}

/** GET /status's render block, rebuilt only when the worker's stats or liveness changed since the last ask. */
export function renderStatusOf(d: RenderStatusDeps): () => RenderStatus {
  const { cfg, render, display, pressure } = d;
  let statusMemo: { stats: unknown; alive: boolean; value: RenderStatus } | null = null;
  return (): RenderStatus => {
    const stats = render.stats;
    const alive = render.alive();
    if (statusMemo && statusMemo.stats === stats && statusMemo.alive === alive) return statusMemo.value;
    const value: RenderStatus = {
      running: alive,
      width: cfg.render.width,
      height: cfg.render.height,
      targetFps: cfg.render.fps,
      fps: stats?.fps ?? 0,
      frameMsP50: stats?.frameMsP50 ?? 0,
      frameMsP99: stats?.frameMsP99 ?? 0,
      droppedFrames: stats?.droppedFrames ?? 0,
      frames: stats?.frames ?? 0,
      renderer: render.renderer,
      contextRestarts: stats?.contextRestarts ?? 0,
      display: `${display.name} (${display.origin === 'xvfb' ? 'own Xvfb' : '$DISPLAY'})`,
      gl: stats?.gl ?? { textures: 0, programs: 0, framebuffers: 0, buffers: 0, shaders: 0, renderbuffers: 0 },
      programs: stats?.programs ?? { cached: 0, limit: PROGRAM_CACHE.programs + PROGRAM_CACHE.transitions },
      passes: stats?.passes ?? 0,
      fusedRuns: stats?.fusedRuns ?? [],
      fusedPrograms: stats?.fusedPrograms ?? { cached: 0, limit: PROGRAM_CACHE.fused },
      programCompiles: stats?.programCompiles ?? { ahead: 0, onDemand: 0, pending: 0 },
      scale: stats?.scale ?? 1,
      renderWidth: stats?.renderWidth ?? cfg.render.width,
      renderHeight: stats?.renderHeight ?? cfg.render.height,
      scaleLimit: stats?.scaleLimit ?? { by: null, frameMs: 0, readbackMs: 0, ...pressure.last },
      readback: render.readback ?? { layout: 'rgba', i420Ms: null, rgbaMs: null },
    };
    statusMemo = { stats, alive, value };
    return value;
  };
}
