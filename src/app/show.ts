// The show side of vjd: display, render worker, catalog, ingest worker, live inputs, media library, sources and
// the browse tree, wired together and kept in step (a catalog or library change rebuilds what depends on it).
import { PressureMeter } from './pipeline-pressure.js';
import { join } from 'node:path';
import { access } from 'node:fs/promises';
import type { LoadedConfig } from '../config/load.js';
import type { Logger } from '../log.js';
import type { StateStore } from '../state/store.js';
import { ensureDisplay, type Display } from '../workers/xvfb.js';
import { RenderClient } from '../workers/render-client.js';
import { Catalog, catalogList, type CatalogSnapshot } from '../catalog/catalog.js';
import { IngestClient } from '../workers/ingest-client.js';
import { startFirstRun } from '../sources/first-run.js';
import { ReaderPool } from '../inputs/reader-pool.js';
import { audioTracks } from '../config/audio.js';
import { createLiveProviders, enumerateAll } from '../inputs/live-inputs.js';
import type { LiveInput, LiveProvider } from '../inputs/providers.js';
import { MediaLibrary, type MediaSnapshot } from '../library/media-library.js';
import { ensureDemoMedia } from '../library/demo-media.js';
import type { SourceManager, SourceEntry } from '../sources/source-manager.js';
import type { Mixer } from '../sources/mixer.js';
import { LayerStack } from '../layers/stack.js';
import { Scenes } from '../scenes/service.js';
import { fitSize } from '../thumbnails/params.js';
import { addressed } from '../layers/selected.js';
import { buildBrowseTree, liveItem, type BrowseItem, type BrowseTree } from '../browse/tree.js';
import type { RenderStatus } from '../api/status.js';
import { PaletteLibrary } from '../palettes/library.js';
import { PaletteSelection } from '../palettes/selection.js';
import { EncodePool } from '../workers/encode-pool.js';
import { PosterCache } from '../thumbnails/poster-cache.js';
import { LivePreviews } from '../thumbnails/live-previews.js';
import { ThumbnailService } from '../thumbnails/service.js';
import { thumbnailSubjects } from '../thumbnails/subjects.js';
import { ProgramSource } from '../thumbnails/program-source.js';
import { buildActions, sceneActions, transportActions, type Action } from '../actions/registry.js';
import { OutputClient } from '../workers/output-client.js';
import { OutputService } from '../outputs/service.js';
import { Recordings } from '../outputs/recordings.js';
import { PreviewHub } from '../outputs/preview.js';
import { OutputKinds } from '../outputs/kinds.js';
import { EncoderProbe } from '../outputs/encoder-probe.js';
import type { OutputKind } from '../shared/messages.js';
import { Modulation } from '../modulation/service.js';
import { GeneratorParams } from '../sources/generator-params.js';
import { AudioClient } from '../workers/audio-client.js';
import { AudioService, startSettings } from '../audio/service.js';
import { AudioWire } from '../audio/wire.js';
import { startClock, TempoService } from '../tempo/service.js';
import { runClipEnd } from '../transport/clip-end.js';
import { IMAGE_CACHE_LIMITS, ISF_CACHE_LIMITS, LIMITS } from '../limits.js';
import { TransportService } from '../transport/service.js';

export interface Show {
  display: Display;
  render: RenderClient;
  catalog: Catalog;
  ingest: IngestClient;
  library: MediaLibrary;
  /** The source manager and mixer of /sources, /mix and /transport: those of the addressed layer (see src/layers/selected.ts). */
  sources: SourceManager;
  mixer: Mixer;
  /** The layer stack: each layer's source manager, mixer and blending. */
  layers: LayerStack;
  /** Installed blend modes. */
  blends(): readonly string[];
  maxLayers(): number;
  /** Saved stacks, recalled at once. */
  scenes: Scenes;
  palettes: PaletteLibrary;
  palette: PaletteSelection;
  thumbnails: ThumbnailService;
  outputs: OutputService;
  recordings: Recordings;
  preview: PreviewHub;
  /** Output kinds this box can run (GET /capabilities). */
  outputKinds(): OutputKind[];
  outputClient: OutputClient;
  /** The audio input and its analysis (workers/audio). */
  audio: AudioService;
  /** The tempo clock (owned by the audio worker). */
  tempo: TempoService;
  /** Play, pause, seek, speed, loop, in/out and cue points of the clips on the buses. */
  transport: TransportService;
  /** Input values of the program generator (POST /sources/params). */
  generatorParams: GeneratorParams;
  /** Modulators outside the chain, freeze and the live values the render worker reports. */
  modulation: Modulation;
  /** `<dataDir>/presets`: where POST /presets/save writes; read by the catalog after the configured folders. */
  presetsDir: string;
  actions(): readonly Action[];
  browseTree(): BrowseTree;
  renderStatus(): RenderStatus;
  stop(): Promise<void>;
}

const LIVE_POLL_MS = 2000;
/** The longer side of the image kept with a scene. */
const SCENE_IMAGE_SIZE = 320;
const PROGRAM_CACHE = {
  programs: ISF_CACHE_LIMITS.programCacheMax,
  transitions: ISF_CACHE_LIMITS.transitionCacheMax,
  fused: ISF_CACHE_LIMITS.fusedCacheMax,
  composed: ISF_CACHE_LIMITS.composeCacheMax,
};

export async function startShow(loaded: LoadedConfig, state: StateStore, log: Logger, onFatal: (m: string) => void): Promise<Show> {
  const cfg = loaded.config;
  const display = await ensureDisplay(log);
  // Made before the render worker (it starts nothing yet), so the worker gets the analysis and tempo blocks.
  const firstClock = startClock(cfg.audio, state.peek());
  const audioClient = new AudioClient(
    { ffmpeg: 'ffmpeg', gain: startSettings(cfg.audio, state.peek()).gain, tempo: firstClock.clock, manualBpm: firstClock.manualBpm },
    log,
  );
  const render = new RenderClient(
    {
      audio: { block: audioClient.sharedBlock, tempo: audioClient.tempoBlock },
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
    onFatal,
  );
  await render.start(display.name);
  log.info({ renderer: render.renderer, width: cfg.render.width, height: cfg.render.height, fps: cfg.render.fps }, 'render worker ready');

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
  render.setCatalog(catalog.snapshot.effects, catalog.snapshot.generators, catalog.snapshot.noSignal);
  render.setTransitions(catalog.snapshot.transitions);
  render.setBlends(catalog.snapshot.blends);

  const saved = state.peek();
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

  const palettes = new PaletteLibrary(loaded.paths.palettesDirs, log);
  await palettes.start();
  const palette = new PaletteSelection(palettes, state, (colors) => render.setPalette(colors), log);
  palette.start();

  const ingest = new IngestClient({ maxWidth: cfg.render.width, maxHeight: cfg.render.height, fps: cfg.render.fps, ffmpeg: 'ffmpeg' });
  // One reader per input, shared by the output and thumbnails: a listening input takes only one connection.
  const readers = new ReaderPool(ingest, log, audioTracks(cfg.audio));
  const layers = new LayerStack({
    render,
    readers,
    state,
    transitions: () => catalog.snapshot.transitions,
    defaults: () => ({ type: cfg.mix.transition, durationMs: cfg.mix.durationMs }),
    maxLayers: () => cfg.render.maxLayers,
    log,
  });
  render.on('layer-snapshot', (id, snap) => layers.saveChain(id, snap.entries));
  // /sources, /mix and /transport address the selected layer (or the one a /layers/{n}/… route names) through these.
  const sources = addressed(layers, (l) => l.sources);
  const mixer = addressed(layers, (l) => l.mixer);
  const layerRender = addressed(layers, (l) => l.render);
  const generatorParams = new GeneratorParams({
    currentSource: () => sources.currentSource(),
    list: () => sources.list(),
    generators: () => catalog.snapshot.generators,
    apply: (key, values, fire) => render.setGeneratorValues(key, values, fire),
  });
  render.on('source', (key, layer) => {
    if (layer === layers.current().id) generatorParams.switched(key);
  });
  const modulation = new Modulation({
    state,
    send: (s) => render.setModulation(s),
    want: (untilMs) => render.wantLive(untilMs),
    chainCount: () => render.snapshot.entries.reduce((n, e) => n + Object.keys(e.modulators ?? {}).length, 0),
  });
  render.on('live', (r) => modulation.report(r));
  render.on('source', (key, layer) => {
    if (layer === layers.current().id) modulation.switched(key);
  });

  const providers: LiveProvider[] = createLiveProviders(cfg);
  let live: LiveInput[] = [];
  const refreshLive = async (): Promise<void> => {
    const next = await enumerateAll(providers);
    if (JSON.stringify(next) !== JSON.stringify(live)) {
      live = next;
      rebuild();
    }
  };
  const unwatch = providers.map((p) => p.watch?.(() => void refreshLive()));

  const defaultMedia = join(loaded.paths.dataDir, 'media');
  if (loaded.paths.mediaRoots.length === 1 && loaded.paths.mediaRoots[0] === defaultMedia && !(await exists(defaultMedia))) {
    await ensureDemoMedia(defaultMedia, log).catch((err: Error) => log.warn({ err: err.message }, 'demo media not generated'));
  }
  const library = new MediaLibrary({
    roots: loaded.paths.mediaRoots,
    cacheFile: join(loaded.paths.dataDir, 'cache', 'probe-cache.json'),
    log,
  });
  library.on('change', () => rebuild());
  // Before any media reader opens: a clip's reader starts with its saved transport.
  let tempoNow: TempoService | null = null;
  const transport = new TransportService({
    ingest,
    onBus: (bus) => (bus === 'program' ? sources.currentSource() : mixer.view().preview),
    duration: (id) => {
      const f = library.snapshot().byId.get(id);
      return f ? f.durationSec : undefined;
    },
    bpm: () => tempoNow?.view().bpm ?? 120,
    shown: (key, afterFrame, deadline) => layerRender.shown(key, afterFrame, deadline),
    fps: cfg.render.fps,
    box: { width: cfg.render.width, height: cfg.render.height },
    state,
  });
  transport.on('ended', (id: string, end: 'take' | 'next') => {
    void runClipEnd(
      {
        files: () => library.snapshot().files,
        take: () => mixer.take({}),
        select: async (fileId) => {
          const entry = sources.list().find((e) => e.sourceKind === 'file' && e.id === fileId);
          if (!entry) return;
          await mixer.endTransition();
          // From its in point, playing: its reader may still be open from an earlier end.
          await transport.selectAt(entry, transport.inPoint(fileId), () => sources.select(entry));
        },
        log,
      },
      id,
      end,
    );
  });
  catalog.on('change', (s: CatalogSnapshot) => {
    render.setCatalog(s.effects, s.generators, s.noSignal);
    render.setTransitions(s.transitions);
    render.setBlends(s.blends);
    rebuild();
  });

  const previews = new LivePreviews(readers);
  const encoder = new EncodePool({ log });
  const posters = new PosterCache({
    dir: join(loaded.paths.dataDir, 'cache', 'posters'),
    log,
    maxEntries: IMAGE_CACHE_LIMITS.posterFilesMax,
  });
  const renderSize = { width: cfg.render.width, height: cfg.render.height };
  const programSource = new ProgramSource(LIMITS.thumbnails.readbackTimeoutMs);
  const thumbnails = new ThumbnailService({
    programRing: () => programSource.usable(),
    render,
    encoder,
    previews,
    posters,
    renderSize,
    ...thumbnailSubjects({ live: () => live, catalog, library, palettes, renderSize }),
  });
  let actions: Action[] = [];
  const rebuildActions = (): void => {
    actions = buildActions(catalog.snapshot.effectPresets, sources.list(), palettes.list(), catalog.snapshot.transitions, cfg.audio.inputs);
  };
  palettes.on('change', rebuildActions);
  sources.on('change', rebuildActions);

  let tree: BrowseTree = buildBrowseTree({ sources: [], presets: [], live: [], files: library.snapshot() });
  function rebuild(): void {
    const cat = catalog.snapshot;
    const media = library.snapshot();
    const entries = sourceEntries(cat, live, media);
    layers.setEntries(entries);
    previews.retain(new Set(live.map((l) => l.id)));
    rebuildActions();
    tree = buildBrowseTree({
      sources: cat.generators.map((g) => sourceItem('sourceType', `source:${g.type}`, g.name)),
      presets: cat.presets.map((p) => sourceItem('sourcePreset', p.id, p.name)),
      live: providers.map((p) => ({
        provider: p.type,
        label: p.label,
        items: live.filter((l) => l.provider === p.type && l.available).map(liveItem),
      })),
      files: media,
    });
  }

  await refreshLive();
  rebuild();
  // The first scan of a big library probes every file (minutes for thousands); the port does not wait for it.
  // A saved media file becomes current again when the scan has found it; other sources come back at once.
  // Layer 1 keeps its source and mixer in the top-level fields of state.json (files from before layers load as it).
  const base = layers.byId(1);
  const savedIsFile = saved.currentSource?.kind === 'file';
  if (base && !savedIsFile) await base.sources.restore(saved.currentSource);
  const savedPreviewIsFile = saved.mix?.preview?.kind === 'file';
  if (base && !savedPreviewIsFile) await base.mixer.restore(saved.mix);
  await layers.restoreChains((chain, id) => render.restore(chain, Number.MAX_SAFE_INTEGER, id));
  await layers.restoreSources(false);
  if (state.firstRun && cfg.sources.firstRun !== null) await startFirstRun(layers.selected().sources, cfg.sources.firstRun, log);
  let stopped = false;
  void library
    .start()
    .then(async () => {
      if (stopped) return;
      rebuild();
      if (base && savedIsFile) await base.sources.restore(saved.currentSource);
      if (base && savedPreviewIsFile) await base.mixer.restore(saved.mix);
      await layers.restoreSources(true);
    })
    .catch((err: Error) => log.error({ err: err.message }, 'media library did not start'));
  const outputClient = new OutputClient({
    ffmpeg: 'ffmpeg',
    width: cfg.render.width,
    height: cfg.render.height,
    log,
    layout: () => render.readback?.layout ?? null,
  });
  // The encoders' drops and the main thread's lateness, once a second, for the render's automatic scale and the previews.
  const pressure = new PressureMeter(
    () => outputClient.totals(),
    (p) => render.pressure(p),
  );
  pressure.start();
  const outputs = new OutputService({
    configured: cfg.outputs,
    render: {
      ...cfg.render,
      setOutputRing: (ring) => {
        programSource.set(ring);
        render.setOutputRing(ring);
      },
    },
    dataDir: loaded.paths.dataDir,
    recordingsDir: loaded.paths.recordingsDir,
    shareRecordings: cfg.recordings.shareEncoder,
    client: outputClient,
    encoders: new EncoderProbe({ ffmpeg: 'ffmpeg' }),
    log,
  });
  await outputs.start();
  const kinds = new OutputKinds({ ffmpeg: 'ffmpeg', displays: () => outputs.displays(), sysfsDir: cfg.live.v4l2.sysfsDir });
  await kinds.start();
  if (!kinds.list().includes('stream')) log.warn({}, 'ffmpeg has no libx264 encoder: streams and recordings cannot run');
  const recordings = new Recordings({ dir: outputs.recordingsDir, active: () => outputs.activeRecordings() });
  const preview = new PreviewHub({
    encoder,
    ring: () => outputClient.ring,
    render: cfg.render,
    setActive: (on) => outputs.setPreviewing(on),
    short: () => pressure.short(),
    log,
  });
  const audioWire = new AudioWire({ readers, program: sources, streams: cfg.live.streams, log });
  const audio = new AudioService(cfg.audio, audioClient, state, log, audioWire);
  const tempo = new TempoService(audioClient, state, log, firstClock.manualBpm);
  tempoNow = tempo;
  await audio.start();
  const scenes = new Scenes({
    stack: layers,
    state,
    render,
    maxLayers: () => cfg.render.maxLayers,
    snapshotImage: async () => (await thumbnails.current(SCENE_IMAGE_SIZE, 'png', '').catch(() => null))?.image?.bytes ?? null,
    imageBox: fitSize(cfg.render.width, cfg.render.height, SCENE_IMAGE_SIZE),
    dir: join(loaded.paths.dataDir, 'scenes'),
    log,
  });
  const livePoll = setInterval(() => void refreshLive(), LIVE_POLL_MS);
  livePoll.unref();

  let statusMemo: { stats: unknown; alive: boolean; value: RenderStatus } | null = null;
  const renderStatus = (): RenderStatus => {
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

  return {
    display,
    render,
    catalog,
    ingest,
    library,
    sources,
    mixer,
    layers,
    blends: () => catalog.snapshot.blends.map((b) => b.type),
    maxLayers: () => cfg.render.maxLayers,
    scenes,
    palettes,
    palette,
    thumbnails,
    outputs,
    recordings,
    preview,
    outputKinds: () => kinds.list(),
    outputClient,
    audio,
    tempo,
    transport,
    generatorParams,
    modulation,
    presetsDir,
    // The cue point actions follow the clip on the program bus, so they are listed as asked.
    actions: () => [
      ...actions,
      ...transportActions(transport.viewOf('program')?.cues.map((c) => c.name) ?? []),
      ...sceneActions(scenes.list()),
    ],
    browseTree: () => tree,
    renderStatus,
    async stop() {
      stopped = true;
      clearInterval(livePoll);
      kinds.stop();
      audio.stop();
      for (const u of unwatch) u?.();
      catalog.stop();
      palettes.stop();
      previews.stop();
      preview.stop();
      await encoder.close();
      pressure.stop();
      await outputClient.stop();
      tempo.stop();
      transport.stop();
      await audioClient.stop();
      await library.stop();
      await ingest.stop();
      await render.stop();
      await display.stop();
    },
  };
}

function sourceItem(kind: 'sourceType' | 'sourcePreset', id: string, name: string): BrowseItem {
  return {
    kind,
    id,
    name,
    thumbnailUrl: `/api/v1/thumbnails/source/${id}`,
    activate: { method: 'POST', path: '/api/v1/sources/select', body: { id } },
  };
}

function sourceEntries(cat: CatalogSnapshot, live: readonly LiveInput[], media: MediaSnapshot): SourceEntry[] {
  const out: SourceEntry[] = [];
  for (const g of cat.generators) {
    out.push({
      id: `source:${g.type}`,
      name: g.name,
      sourceKind: 'generator',
      type: 'generator',
      spec: { kind: 'generator', type: g.type, inputs: {} },
    });
  }
  for (const p of cat.presets) {
    out.push({
      id: p.id,
      name: p.name,
      sourceKind: 'preset',
      type: 'generator',
      spec: { kind: 'generator', type: p.source, inputs: p.inputs },
    });
  }
  for (const l of live) {
    if (l.available) out.push({ id: l.id, name: l.name, sourceKind: 'live', type: 'live', spec: { kind: 'live', input: l } });
  }
  for (const f of media.files) {
    out.push({ id: f.id, name: f.name, sourceKind: 'file', type: f.type, spec: { kind: 'file', path: f.path, still: f.type === 'image' } });
  }
  return out;
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
