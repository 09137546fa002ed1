// The sources side of the show: the live inputs (watched, and polled for hotplug a provider does not report), the
// media library, and the index built from them and the catalog: the layers' source entries, the browse tree and the
// action list, rebuilt whenever one of them changes. Then the saved show coming back: which sources come back at
// once and which wait for the library's first scan (a saved media file becomes current only once the scan found it).
import { join } from 'node:path';
import { access } from 'node:fs/promises';
import type { LoadedConfig } from '../config/load.js';
import type { Config } from '../config/schema.js';
import type { Logger } from '../log.js';
import type { ShowState, StateStore } from '../state/store.js';
import type { RenderClient } from '../workers/render-client.js';
import type { Catalog } from '../catalog/catalog.js';
import { startFirstRun } from '../sources/first-run.js';
import { createLiveProviders, enumerateAll } from '../inputs/live-inputs.js';
import type { LiveInput, LiveProvider } from '../inputs/providers.js';
import { MediaLibrary } from '../library/media-library.js';
import { ensureDemoMedia } from '../library/demo-media.js';
import type { SourceManager } from '../sources/source-manager.js';
import { browseRoots, restorePhase, sourceEntries } from '../sources/kinds/index.js';
import type { LayerStack } from '../layers/stack.js';
import { buildBrowseTree, type BrowseTree } from '../browse/tree.js';
import type { PaletteLibrary } from '../palettes/library.js';
import type { LivePreviews } from '../thumbnails/live-previews.js';
import { buildActions, type Action } from '../actions/registry.js';

const LIVE_POLL_MS = 2000;

export interface LiveWatch {
  providers: readonly LiveProvider[];
  /** The live inputs found at the last look. */
  current(): LiveInput[];
  /** Looks again; calls the `changed` given to watchLive when the set differs. */
  refresh(): Promise<void>;
  /** Looks again every LIVE_POLL_MS from now on. */
  poll(): void;
  stopPolling(): void;
  /** Stops the providers' own hotplug watches. */
  unwatch(): void;
}

/** The live inputs of the configured providers; their hotplug watches start here, the poll when poll() is called. */
export function watchLive(cfg: Config, changed: () => void): LiveWatch {
  const providers: LiveProvider[] = createLiveProviders(cfg);
  let live: LiveInput[] = [];
  const refreshLive = async (): Promise<void> => {
    const next = await enumerateAll(providers);
    if (JSON.stringify(next) !== JSON.stringify(live)) {
      live = next;
      changed();
    }
  };
  const unwatch = providers.map((p) => p.watch?.(() => void refreshLive()));
  let livePoll: NodeJS.Timeout | undefined;
  return {
    providers,
    current: () => live,
    refresh: refreshLive,
    poll() {
      livePoll = setInterval(() => void refreshLive(), LIVE_POLL_MS);
      livePoll.unref();
    },
    stopPolling: () => clearInterval(livePoll),
    unwatch() {
      for (const u of unwatch) u?.();
    },
  };
}

/** The media library (demo clips generated first when the default folder is the only root and missing); not started. */
export async function openLibrary(loaded: LoadedConfig, log: Logger, changed: () => void): Promise<MediaLibrary> {
  const defaultMedia = join(loaded.paths.dataDir, 'media');
  if (loaded.paths.mediaRoots.length === 1 && loaded.paths.mediaRoots[0] === defaultMedia && !(await exists(defaultMedia))) {
    await ensureDemoMedia(defaultMedia, log).catch((err: Error) => log.warn({ err: err.message }, 'demo media not generated'));
  }
  const library = new MediaLibrary({
    roots: loaded.paths.mediaRoots,
    cacheFile: join(loaded.paths.dataDir, 'cache', 'probe-cache.json'),
    log,
  });
  library.on('change', () => changed());
  return library;
}

export interface IndexDeps {
  cfg: Config;
  catalog: Catalog;
  library: MediaLibrary;
  palettes: PaletteLibrary;
  /** The selected layer's source manager: its list feeds the actions. */
  sources: SourceManager;
  layers: LayerStack;
  previews: LivePreviews;
  live: LiveWatch;
  /** Every audio input by id and name (configured, added and discovered), each an `audio.<id>` action. */
  audioInputs: () => ReadonlyArray<{ id: string; name: string }>;
}

export interface SourceIndex {
  /** Recomputes the layers' source entries, the retained live previews, the actions and the browse tree. */
  rebuild(): void;
  /** Recomputes the actions only (the audio inputs changed). */
  refreshActions(): void;
  actions(): readonly Action[];
  tree(): BrowseTree;
}

/** The index over catalog, live inputs and library; built empty here, filled by the first rebuild(). */
export function sourceIndex(d: IndexDeps): SourceIndex {
  const { catalog, library, palettes, sources, layers, previews, live } = d;
  let actions: Action[] = [];
  const rebuildActions = (): void => {
    actions = buildActions(catalog.snapshot.effectPresets, sources.list(), palettes.list(), catalog.snapshot.transitions, d.audioInputs());
  };
  palettes.on('change', rebuildActions);
  sources.on('change', rebuildActions);

  // Replaced by the first rebuild, which restoreSources runs before the port opens.
  let tree: BrowseTree = buildBrowseTree([]);
  function rebuild(): void {
    const from = { catalog: catalog.snapshot, live: live.current(), providers: live.providers, media: library.snapshot() };
    layers.setEntries(sourceEntries(from));
    previews.retain(new Set(from.live.map((l) => l.id)));
    rebuildActions();
    tree = buildBrowseTree(browseRoots(from));
  }
  return { rebuild, refreshActions: rebuildActions, actions: () => actions, tree: () => tree };
}

export interface RestoreDeps {
  cfg: Config;
  state: StateStore;
  saved: Readonly<ShowState>;
  layers: LayerStack;
  render: RenderClient;
  library: MediaLibrary;
  live: LiveWatch;
  rebuild: () => void;
  /** True once the show is stopping: the library's late start then restores nothing. */
  stopped: () => boolean;
  log: Logger;
}

/** Brings the saved sources, mixes and layer chains back, then starts the library without waiting for its scan. */
export async function restoreSources(d: RestoreDeps): Promise<void> {
  const { cfg, state, saved, layers, render, library, log } = d;
  await d.live.refresh();
  d.rebuild();
  // The first scan of a big library probes every file (minutes for thousands); the port does not wait for it.
  // A saved media file becomes current again when the scan has found it; other sources come back at once (each
  // kind's restore phase). Layer 1 keeps its source and mixer in the top-level fields of state.json (files from
  // before layers load as it).
  const base = layers.byId(1);
  const sourcePhase = restorePhase(saved.currentSource?.kind);
  if (base && sourcePhase === 'start') await base.sources.restore(saved.currentSource);
  const previewPhase = restorePhase(saved.mix?.preview?.kind);
  if (base && previewPhase === 'start') await base.mixer.restore(saved.mix);
  await layers.restoreChains((chain, id) => render.restore(chain, Number.MAX_SAFE_INTEGER, id));
  await layers.restoreSources('start');
  if (state.firstRun && cfg.sources.firstRun !== null) await startFirstRun(layers.selected().sources, cfg.sources.firstRun, log);
  void library
    .start()
    .then(async () => {
      if (d.stopped()) return;
      d.rebuild();
      if (base && sourcePhase === 'scan') await base.sources.restore(saved.currentSource);
      if (base && previewPhase === 'scan') await base.mixer.restore(saved.mix);
      await layers.restoreSources('scan');
    })
    .catch((err: Error) => log.error({ err: err.message }, 'media library did not start'));
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
