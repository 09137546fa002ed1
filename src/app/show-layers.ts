// The layer side of the show: the ingest worker and its shared readers, the layer stack and the selected-layer views
// /sources, /mix and /transport address, generator inputs and modulation (both follow the source the render worker
// reports on the selected layer), the transport of the clips on the buses, and saved scenes. The stack comes after
// the render worker and catalog (it reads their transitions and drives the worker); the transport comes after the
// media library, whose files give a clip its length.
import { join } from 'node:path';
import type { Config } from '../config/schema.js';
import type { Logger } from '../log.js';
import type { StateStore } from '../state/store.js';
import type { RenderClient } from '../workers/render-client.js';
import type { Catalog } from '../catalog/catalog.js';
import { IngestClient } from '../workers/ingest-client.js';
import { ReaderPool } from '../inputs/reader-pool.js';
import { audioTracks } from '../config/audio.js';
import type { MediaLibrary } from '../library/media-library.js';
import type { SourceManager } from '../sources/source-manager.js';
import type { Mixer } from '../sources/mixer.js';
import { LayerStack, type LayerParts } from '../layers/stack.js';
import { addressed } from '../layers/selected.js';
import { Scenes } from '../scenes/service.js';
import { fitSize } from '../thumbnails/params.js';
import type { ThumbnailService } from '../thumbnails/service.js';
import { Modulation } from '../modulation/service.js';
import { GeneratorParams } from '../sources/generator-params.js';
import type { TempoService } from '../tempo/service.js';
import { runClipEnd } from '../transport/clip-end.js';
import { TransportService } from '../transport/service.js';

/** The longer side of the image kept with a scene. */
const SCENE_IMAGE_SIZE = 320;

export interface LayersDeps {
  cfg: Config;
  render: RenderClient;
  catalog: Catalog;
  state: StateStore;
  log: Logger;
}

export interface ShowLayers {
  ingest: IngestClient;
  readers: ReaderPool;
  /** Which readers decode sound; the audio service turns media files on when a `program` input is added. */
  audioTracks: ReturnType<typeof audioTracks>;
  layers: LayerStack;
  /** The selected layer's (or the one a /layers/{n}/… route names) source manager, mixer and render. */
  sources: SourceManager;
  mixer: Mixer;
  layerRender: LayerParts['render'];
  generatorParams: GeneratorParams;
  modulation: Modulation;
}

export function wireLayers(d: LayersDeps): ShowLayers {
  const { cfg, render, catalog, state, log } = d;
  const ingest = new IngestClient({ maxWidth: cfg.render.width, maxHeight: cfg.render.height, fps: cfg.render.fps, ffmpeg: 'ffmpeg' });
  // One reader per input, shared by the output and thumbnails: a listening input takes only one connection.
  const tracks = audioTracks(cfg.audio);
  const readers = new ReaderPool(ingest, log, tracks);
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
  return { ingest, readers, audioTracks: tracks, layers, sources, mixer, layerRender, generatorParams, modulation };
}

export interface TransportWiring {
  cfg: Config;
  parts: ShowLayers;
  library: MediaLibrary;
  /** The tempo service once the audio side has made it (null before: 120 BPM). */
  tempo: () => TempoService | null;
  state: StateStore;
  log: Logger;
}

/** The transport of the clips on the buses; a clip's end takes or moves to the next file (runClipEnd). */
export function wireTransport(d: TransportWiring): TransportService {
  const { cfg, library, state, log } = d;
  const { ingest, sources, mixer, layerRender } = d.parts;
  const transport = new TransportService({
    ingest,
    onBus: (bus) => (bus === 'program' ? sources.currentSource() : mixer.view().preview),
    duration: (id) => {
      const f = library.snapshot().byId.get(id);
      return f ? f.durationSec : undefined;
    },
    bpm: () => d.tempo()?.view().bpm ?? 120,
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
  return transport;
}

export interface ScenesDeps {
  cfg: Config;
  dataDir: string;
  layers: LayerStack;
  render: RenderClient;
  /** Each scene keeps an image of the program, taken through the thumbnails. */
  thumbnails: ThumbnailService;
  state: StateStore;
  log: Logger;
}

/** Saved stacks, recalled at once. */
export function wireScenes(d: ScenesDeps): Scenes {
  const { cfg, thumbnails } = d;
  return new Scenes({
    stack: d.layers,
    state: d.state,
    render: d.render,
    maxLayers: () => cfg.render.maxLayers,
    snapshotImage: async () => (await thumbnails.current(SCENE_IMAGE_SIZE, 'png', '').catch(() => null))?.image?.bytes ?? null,
    imageBox: fitSize(cfg.render.width, cfg.render.height, SCENE_IMAGE_SIZE),
    dir: join(d.dataDir, 'scenes'),
    log: d.log,
  });
}
