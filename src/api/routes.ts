// The route table: every route group of the API, built from the running application's parts in one place.
import type { RouteDef } from '../http/route.js';
import type { Logger } from '../log.js';
import type { StateStore } from '../state/store.js';
import type { TopicDef } from '../events/bus.js';
import type { RenderClient } from '../workers/render-client.js';
import type { IngestClient } from '../workers/ingest-client.js';
import type { Catalog } from '../catalog/catalog.js';
import type { SourceManager } from '../sources/source-manager.js';
import type { Mixer } from '../sources/mixer.js';
import type { GeneratorParams } from '../sources/generator-params.js';
import { kindsSelectedBy } from '../sources/kinds/index.js';
import type { BrowseTree } from '../browse/tree.js';
import type { ThumbnailService } from '../thumbnails/service.js';
import type { PaletteLibrary } from '../palettes/library.js';
import type { PaletteSelection } from '../palettes/selection.js';
import type { Action } from '../actions/registry.js';
import type { OutputService } from '../outputs/service.js';
import type { Recordings } from '../outputs/recordings.js';
import type { PreviewHub } from '../outputs/preview.js';
import type { AudioService } from '../audio/service.js';
import { audioRoutes } from './audio.js';
import type { Tempo } from '../tempo/types.js';
import { tempoRoutes } from './tempo.js';
import { transportRoutes } from './transport.js';
import type { TransportService } from '../transport/service.js';
import { modulationRoutes } from './modulation.js';
import type { Modulation } from '../modulation/service.js';
import { buildOpenApi, toYaml } from '../openapi/build.js';
import type { LayerStack } from '../layers/stack.js';
import { addressed } from '../layers/selected.js';
import { layersRoutes, perLayer } from './layers.js';
import { sceneRoutes } from './scenes.js';
import type { Scenes } from '../scenes/service.js';
import type { AppContext } from './context.js';
import { statusRoutes } from './status.js';
import { capabilitiesRoutes } from './capabilities.js';
import { globalRoutes } from './global.js';
import { chainWithInputs, effectsRoutes } from './effects.js';
import { sourcesRoutes } from './sources.js';
import { mixRoutes } from './mix.js';
import { presetRoutes } from './presets.js';
import { sourceParamsRoutes } from './source-params.js';
import { browseRoutes } from './browse.js';
import { thumbnailRoutes } from './thumbnails.js';
import { effectThumbnailRoutes } from './effect-thumbnail.js';
import { warmRoutes } from './warm.js';
import type { WarmAhead } from '../sources/warm-ahead.js';
import { paletteRoutes } from './palettes.js';
import { actionRoutes } from './actions.js';
import { outputRoutes } from './outputs.js';
import { recordingRoutes } from './recordings.js';
import { previewRoutes } from './preview.js';
import { eventsRoutes } from './events.js';
import { oscRoutes } from './osc.js';
import { dmxRoutes, type DmxRouteDeps } from './dmx.js';
import { midiRoutes, type MidiRouteDeps } from './midi.js';
import { showRoutes, type ShowRouteDeps } from './show.js';
import { scheduleRoutes } from './schedule.js';
import { cueRoutes, type CueRouteDeps } from './cues.js';
import { pixelmapRoutes } from './pixelmap.js';
import type { PixelmapService } from '../pixelmap/service.js';
import { timecodeRoutes } from './timecode.js';
import type { TimecodeService } from '../timecode/service.js';
import type { TimecodeChase } from '../transport/chase.js';
import type { Scheduler } from '../schedule/scheduler.js';
import { testHookRoutes } from './test-hooks.js';
import { catalogRoutes } from './catalog.js';
import { uiRoutes, loadUiAssets } from './ui.js';
import { docsRoutes, loadDocsAssets } from './docs.js';

/** The parts of the show the routes drive. */
export interface RouteShow {
  render: RenderClient;
  /** Readers opened ahead of a cue (absent in a route table built without them: POST /sources/warm is left out). */
  warm?: Pick<WarmAhead, 'warm'>;
  ingest: IngestClient;
  catalog: Catalog;
  sources: SourceManager;
  mixer: Mixer;
  generatorParams: GeneratorParams;
  modulation: Modulation;
  presetsDir: string;
  browseTree(): BrowseTree;
  thumbnails: ThumbnailService;
  palettes: PaletteLibrary;
  palette: PaletteSelection;
  actions(): readonly Action[];
  outputs: OutputService;
  recordings: Recordings;
  preview: PreviewHub;
  audio: AudioService;
  tempo: Tempo;
  transport: TransportService;
  layers: LayerStack;
  scenes: Scenes;
  /** Installed blend modes. */
  blends(): readonly string[];
  /** config render.maxLayers */
  maxLayers(): number;
}

export interface RouteDeps {
  ctx: AppContext;
  show: RouteShow;
  state: StateStore;
  /** The event topics; the socket also carries thumbnail events, which no topic entry describes. */
  topics: readonly TopicDef[];
  /** The test hook routes (VJD_TEST_HOOKS=1). */
  testHooks: boolean;
  log: Logger;
  /** The desk transports' state (DMX; absent in a route table built without them). */
  desks?: { dmx: DmxRouteDeps; midi: MidiRouteDeps; show: ShowRouteDeps };
  /** Operations held for an instant (absent in a route table built without it). */
  scheduler?: Scheduler;
  /** The timecode in and the cue list (absent in a route table built without them). */
  timecode?: { service: TimecodeService; chase: Pick<TimecodeChase, 'stats'> };
  cues?: CueRouteDeps;
  /** Pixel mapping out (absent in a route table built without it). */
  pixelmap?: PixelmapService;
}

/** Every route this server serves, in the order the router and the OpenAPI description list them. */
export async function apiRoutes(d: RouteDeps): Promise<RouteDef[]> {
  const { ctx, show, state } = d;
  const assets = await loadDocsAssets();
  const ui = await loadUiAssets();
  if (ui.missing !== null) d.log.warn(ui.missing);
  for (const file of ui.skipped) d.log.warn({ file }, 'control page file skipped: not a regular file or too large');
  const ceiling = (): number => {
    const license = ctx.license();
    return license.valid ? license.effectCeiling : 0;
  };
  const applyGlobal = (blackout: boolean, dimmer: number): void => show.render.setGlobal(blackout, dimmer);
  const catalog = () => show.catalog.snapshot;
  const loadError = (kind: 'effect' | 'generator' | 'transition', type: string) => show.catalog.errors.of(kind, type);
  let openapiYaml: string | null = null;
  const selectRoutes = sourcesRoutes(
    show.sources,
    {
      mixer: show.mixer,
      defaults: () => ({ type: ctx.config().config.mix.transition, durationMs: ctx.config().config.mix.durationMs }),
    },
    loadError,
    show.transport,
  );
  const layerChain = addressed(show.layers, (l) => l.render);
  const routes: RouteDef[] = [
    ...statusRoutes(ctx),
    ...capabilitiesRoutes(ctx, () => show.audio.kinds()),
    ...globalRoutes(state, applyGlobal, show.modulation),
    ...effectsRoutes({ render: show.render, catalog, ceiling, loadError, modulation: show.modulation }),
    ...selectRoutes,
    ...(show.warm ? warmRoutes({ sources: show.sources, warm: show.warm }) : []),
    ...mixRoutes({
      mixer: show.mixer,
      sources: show.sources,
      transitions: () => show.catalog.snapshot.transitions,
      loadError,
      modulation: show.modulation,
      transport: show.transport,
    }),
    ...layersRoutes({
      stack: show.layers,
      max: show.maxLayers,
      blends: show.blends,
      resolve: (q) => show.sources.resolve(kindsSelectedBy('source'), { id: q, name: q }, 'source'),
    }),
    ...perLayer(
      effectsRoutes({ render: layerChain, catalog, ceiling, loadError }).filter((r) => !r.path.endsWith('/effects/available')),
      show.layers,
    ),
    ...perLayer(
      selectRoutes.filter((r) => r.path.endsWith('/sources/select') || r.path.endsWith('/sources/current')),
      show.layers,
    ),
    ...sceneRoutes({
      scenes: show.scenes,
      resolveTransition: (q) => show.mixer.resolveTransition(q),
      defaultTransition: () => show.mixer.view().transition,
      ceiling,
    }),
    ...catalogRoutes(() => show.catalog.errors),
    ...effectThumbnailRoutes(show.thumbnails),
    ...presetRoutes({ render: show.render, catalog, reload: () => show.catalog.reload(), dir: show.presetsDir }),
    ...sourceParamsRoutes({ params: show.generatorParams, alive: () => show.render.alive(), modulation: show.modulation }),
    ...modulationRoutes({
      render: show.render,
      modulation: show.modulation,
      params: show.generatorParams,
      state,
    }),
    ...browseRoutes({ tree: () => show.browseTree(), activeItemId: () => show.sources.activeItemId() }),
    ...thumbnailRoutes(show.thumbnails, (position) => {
      const n = /^[0-9]{1,2}$/.test(position) ? Number(position) : 0;
      return show.layers.layers()[n - 1]?.id ?? null;
    }),
    ...paletteRoutes(show.palette, () => show.palettes.list()),
    ...actionRoutes({
      actions: () => show.actions(),
      render: show.render,
      ceiling,
      sources: show.sources,
      mixer: show.mixer,
      palettes: show.palette,
      state,
      applyGlobal,
      audio: show.audio,
      tempo: show.tempo,
      transport: show.transport,
      scenes: show.scenes,
      modulation: {
        frozen: () => show.modulation.view.frozen,
        setFrozen: (enabled) => {
          show.modulation.freeze(enabled);
          return { frozen: show.modulation.view.frozen };
        },
      },
    }),
    ...outputRoutes(show.outputs),
    ...recordingRoutes(show.recordings),
    ...previewRoutes(show.preview),
    ...audioRoutes(show.audio),
    ...tempoRoutes(show.tempo),
    ...transportRoutes(show.transport),
    ...eventsRoutes(
      [...d.topics.map((t) => t.name), 'thumbnail'],
      d.topics.filter((t) => t.inHello).map((t) => t.name),
    ),
    ...oscRoutes({
      name: 'vjd',
      chain: () => chainWithInputs({ render: show.render, catalog, modulation: show.modulation }),
      osc: () => ctx.osc(),
    }),
    ...(d.desks ? [...dmxRoutes(d.desks.dmx), ...midiRoutes(d.desks.midi, d.testHooks)] : []),
    ...(d.desks ? showRoutes(d.desks.show, d.scheduler ?? null) : []),
    ...(d.scheduler ? scheduleRoutes(d.scheduler) : []),
    ...(d.timecode ? timecodeRoutes(d.timecode.service, d.timecode.chase) : []),
    ...(d.cues ? cueRoutes(d.cues) : []),
    ...(d.pixelmap ? pixelmapRoutes(d.pixelmap) : []),
    ...(d.testHooks ? testHookRoutes(show.render, show.ingest, show.audio, () => d.pixelmap?.reapply()) : []),
    ...uiRoutes(ui),
    ...docsRoutes({ assets, openapiYaml: () => (openapiYaml ??= toYaml(buildOpenApi(routes, { version: ctx.version }))) }),
  ];
  return routes;
}
