// `vjd serve`: wires config, license, routes and the listener together, applies live settings changes,
// and shuts down gracefully on SIGTERM/SIGINT.
import { hostname } from 'node:os';
import { mkdir } from 'node:fs/promises';
import { log, flushLog } from '../log.js';
import { loadConfig, ConfigError, describeOrigin, type LoadedConfig, type Overrides } from '../config/load.js';
import { watchConfig, diffConfig } from '../config/watch.js';
import { ReloadReport } from '../config/reload.js';
import { LicenseWatch } from '../license/watch.js';
import { loadUws } from '../http/uws.js';
import { ApiKeyGuard } from '../http/auth.js';
import { HostPolicy } from '../http/host-policy.js';
import { compileRoutes, type Router } from '../http/router.js';
import { HttpListener } from '../http/listener.js';
import { API_PREFIX } from '../http/route.js';
import { apiRoutes } from '../api/routes.js';
import { StateStore } from '../state/store.js';
import { removeStatusFile } from './status-file.js';
import { ListenerReport } from './listener-report.js';
import { AddressCache } from '../util/network.js';
import type { AppContext } from '../api/context.js';
import { packageVersion } from './version.js';
import { startShow } from './show.js';
import { dispatchRequest, type NeutralRequest } from '../http/dispatch.js';
import { StateBus } from '../events/bus.js';
import { liveValuesOf } from '../events/live-topic.js';
import { eventTopics } from '../events/topics.js';
import { EventHub } from '../events/socket.js';
import { createTransports } from './transports.js';
import { createScheduler } from '../schedule/index.js';
import { mirrorHook } from '../mqtt/mirror.js';
import { createCues } from '../cues/index.js';
import { TimecodeChase } from '../transport/chase.js';
import { PixelmapService } from '../pixelmap/service.js';

/** Settings that apply without a restart; every other changed key is logged as needing one. */
const LIVE_KEYS = new Set([
  'server.enabled',
  'server.host',
  'server.port',
  'server.apiKey',
  'server.allowedHosts',
  'server.allowPrivateNetwork',
  'server.allowedOrigins',
  'server.maxEventClients',
  'license.trustedKeys',
  'license.file',
  'render.scale',
  'render.minScale',
]);
const SHUTDOWN_DRAIN_MS = 3000;
const SHUTDOWN_HARD_MS = 8000;

export async function serve(flags: Overrides): Promise<void> {
  let loaded: LoadedConfig;
  try {
    loaded = await loadConfig(flags);
  } catch (err) {
    if (err instanceof ConfigError) {
      log.fatal({ key: err.key, file: err.file }, err.message);
      flushLog();
      process.exit(2);
    }
    throw err;
  }

  const version = await packageVersion();
  const { uws, engine } = loadUws();
  log.info({ version, node: process.version, pid: process.pid, config: describeOrigin(loaded) }, 'vjd starting');
  if (!engine.native) {
    log.error(
      { binary: engine.binary },
      'uWebSockets.js native binary did not load; the slow pure-JS fallback is serving (reported in /status)',
    );
  }

  const state = new StateStore(loaded.paths.stateFile, log);
  await mkdir(loaded.paths.dataDir, { recursive: true });
  await state.load();

  let show: Awaited<ReturnType<typeof startShow>>;
  try {
    show = await startShow(loaded, state, log, (message) => {
      log.fatal(message);
      flushLog();
      process.exit(1);
    });
  } catch (err) {
    log.fatal({ err: (err as Error).message }, 'rendering could not start');
    flushLog();
    process.exit(1);
  }

  const licenseSettings = { file: () => loaded.paths.licenseFile, trustedKeys: () => loaded.config.license.trustedKeys };
  const license = new LicenseWatch(licenseSettings, log, () => applyListener());
  const guard = new ApiKeyGuard();
  guard.setKey(loaded.config.server.apiKey);
  const hosts = new HostPolicy();
  hosts.configure(loaded.config.server.host, loaded.config.server.allowedHosts);

  // The desk transports (OSC, DMX, MIDI), made before the route table that shows their state.
  const transports = createTransports(loaded, show, log);
  // Pixel mapping: the saved fixtures sampled by the render worker and sent by its own thread (config pixelmap).
  const pixelmap = new PixelmapService({
    config: loaded.config.pixelmap,
    state,
    render: show.render,
    log: log.child({ module: 'pixelmap' }),
    cidSeed: `${hostname()}:${loaded.paths.dataDir}`,
  });
  pixelmap.start();
  let router: Router | null = null;
  const addresses = new AddressCache(API_PREFIX);
  const reloads = new ReloadReport();
  const ctx: AppContext = {
    name: 'vjd',
    version,
    startedAt: new Date(),
    engine,
    config: () => loaded,
    listener: () => listener.status,
    addresses: () => addresses.get(listener.status.host, listener.status.port),
    license: () => license.current,
    apiKeyRequired: () => guard.enabled,
    features: () => [...(router?.features ?? []), ...transports.features()].sort(),
    outputKinds: () => show.outputKinds(),
    render: () => show.renderStatus(),
    thumbnails: () => show.thumbnails.stats(),
    thumbnailsVersion: () => show.thumbnails.version(),
    outputs: () => ({ ...show.outputs.summary(), preview: show.preview.stats() }),
    outputsVersion: () => show.outputClient.version + show.preview.version,
    events: () => hub?.stats() ?? { clients: 0, messagesIn: 0, malformed: 0, resyncs: 0 },
    osc: () => transports.osc.stats(),
    audio: () => {
      const s = show.audio.status();
      // Rounded so the memoised status body changes with the hop time's tenths, not every hop.
      return { input: s.input, state: s.state, hopMs: Math.round(show.audio.levels().hopMs * 10) / 10 };
    },
    reloadError: () => reloads.error,
    pixelmap: () => pixelmap.status(),
    eventsVersion: () => (hub?.version ?? 0) + transports.osc.version,
  };

  // Operations held for an instant (`at`): every transport's dispatch and the HTTP adapter hand them to it.
  const scheduler = createScheduler(show.render, show.tempo, () => loaded.config.render.fps, log);
  // The cue list: its triggers read the timecode and tempo clocks, its operations go through the one dispatch.
  const chase = new TimecodeChase(show.transport, transports.timecode.clock, log.child({ module: 'chase' }));
  const cues = createCues({ state, timecode: transports.timecode, tempo: show.tempo, scheduler, log: log.child({ module: 'cues' }) });
  // The event topics: one entry each (src/events/topics.ts), hooked where state changes.
  const topics = eventTopics({
    onStateChange: (cb) => state.onChange(cb),
    onSourcesChange: (cb) => void show.sources.on('change', cb),
    onPaletteChange: (cb) => void show.palette.on('change', cb),
    onMixChange: (cb) => void show.mixer.on('change', cb),
    onGeneratorChange: (cb) => show.generatorParams.onChange(cb),
    outputsVersion: () => ctx.outputsVersion(),
    browseVersion: () => show.browseTree(),
    tempo: show.tempo,
    onTransportChange: (cb) => void show.transport.on('change', cb),
    onLayersChange: (cb) => void show.layers.on('change', cb),
    onScenesChange: (cb) => void show.scenes.on('change', cb),
    // The render worker's latest report of the modulated inputs' applied values.
    live: () => liveValuesOf(show.modulation.live),
    onScheduleChange: (cb) => scheduler.onChange(cb),
    onTimecodeChange: (cb) => {
      transports.timecode.on('state', cb);
      transports.timecode.on('jump', cb);
    },
    onCuesChange: (cb) => void cues.runner.on('change', cb),
    onAudioInputsChange: (cb) => show.audio.onInputsChange(cb),
  });
  const routes = await apiRoutes({
    scheduler,
    ctx,
    show,
    state,
    topics,
    testHooks: process.env.VJD_TEST_HOOKS === '1',
    log,
    desks: transports.routes,
    timecode: { service: transports.timecode, chase },
    cues,
    pixelmap,
  });
  router = compileRoutes(routes);
  const compiled = router;

  // One dispatch for WebSocket requests, OSC and the topics' snapshots: the same route table, validation, auth, errors.
  // A show leader publishes operations sent with `show` to the show's boxes instead of applying them here.
  const mirror = mirrorHook(transports.show, (at) => scheduler.resolve(at));
  const dispatch = (req: NeutralRequest) =>
    dispatchRequest({ router: compiled, guard, log, durable: () => state.durable(), schedule: scheduler, mirror }, req);
  let hub: EventHub | null = null;
  const bus = new StateBus(
    topics,
    dispatch,
    log,
    () => (hub?.active ?? false) || transports.sendsFeedback(),
    () => hub?.wantsThumbnails ?? false,
    (topic) => (hub?.wants(topic) ?? false) || transports.wantsTopic(topic),
  );
  hub = new EventHub({
    bus,
    router: compiled,
    dispatch,
    guard,
    hosts,
    log,
    server: { name: 'vjd', version },
    maxClients: () => loaded.config.server.maxEventClients,
    allowedOrigins: () => loaded.config.server.allowedOrigins,
  });
  bus.start();
  hub.start();
  transports.bind(dispatch);
  cues.bind(dispatch, (op) => compiled.find('POST', `${API_PREFIX}${op}`) !== null);
  await transports.start(bus);

  const listenerReport = new ListenerReport(() => loaded.paths.runDir, version, log);
  const policy = {
    guard,
    hosts,
    privateNetwork: () => loaded.config.server.allowPrivateNetwork,
    durable: () => state.durable(),
    schedule: scheduler,
    mirror,
  };
  const listener = new HttpListener(
    uws,
    router,
    policy,
    log,
    (s) => listenerReport.report(s),
    (app, isLive) => hub?.mount(app, isLive),
  );

  function applyListener(): Promise<void> {
    const s = loaded.config.server;
    return listener.apply({
      enabled: s.enabled,
      host: s.host,
      address: loaded.bindAddress,
      port: s.port,
      licenseProblem: license.current.valid ? null : license.current.reason,
    });
  }

  license.follow();

  const configFile = loaded.file;
  const configWatch = configFile
    ? watchConfig(
        configFile,
        (result) => {
          if (!result.ok) {
            log.error({ key: result.error.key, file: result.error.file }, `${result.error.message}; keeping the last good config`);
            reloads.refused(result.error, configFile);
            return;
          }
          reloads.succeeded();
          // Fail closed: the new key applies, and OSC (which has no authentication) leaves the network.
          const oscReason = result.loaded.oscLoopbackOnly;
          if (oscReason !== undefined && !transports.osc.stats().restricted) {
            log.warn({ key: 'osc.allowRemote', file: configFile }, `OSC moved to loopback: ${oscReason}`);
            void transports.osc.restrictToLoopback(oscReason);
          }
          const changed = diffConfig(loaded.config, result.loaded.config);
          if (changed.length === 0) return;
          const restart = changed.filter((k) => ![...LIVE_KEYS].some((live) => k === live || k.startsWith(`${live}.`)));
          loaded = keepDataDir(loaded, result.loaded);
          log.info({ changed: changed.filter((k) => !restart.includes(k)) }, 'config reloaded');
          if (restart.length > 0) log.warn({ keys: restart }, 'these config changes take effect at the next restart');
          guard.setKey(loaded.config.server.apiKey);
          hosts.configure(loaded.config.server.host, loaded.config.server.allowedHosts);
          license.follow();
          void license.evaluate();
          const r = loaded.config.render;
          if (changed.some((k) => k === 'render.scale' || k === 'render.minScale')) show.render.setScale(r.scale, r.minScale);
        },
        () => loadConfig(flags, process.env, { oscRemote: 'loopback' }),
      )
    : null;

  let stopping = false;
  async function shutdown(signal: string): Promise<void> {
    if (stopping) return;
    stopping = true;
    log.info({ signal, inFlight: listener.inFlight }, 'shutting down');
    const hard = setTimeout(() => {
      log.error('shutdown took longer than 8 s; exiting');
      flushLog();
      process.exit(1);
    }, SHUTDOWN_HARD_MS);
    hard.unref();
    configWatch?.close();
    license.stop();
    // Endless preview streams end first: the drain below would otherwise wait its whole time for them.
    show.preview.stop();
    hub?.stop();
    cues.stop();
    chase.stop();
    scheduler.stop();
    bus.stop();
    transports.stop();
    await listener.close(SHUTDOWN_DRAIN_MS);
    await listenerReport.settled();
    // Before the render worker stops: the sender ends its sACN streams cleanly.
    await pixelmap.stop().catch((err: Error) => log.error({ err: err.message }, 'pixel-out sender did not stop cleanly'));
    await show.stop().catch((err: Error) => log.error({ err: err.message }, 'show did not stop cleanly'));
    await state.flush();
    await removeStatusFile(loaded.paths.runDir);
    log.info('stopped');
    flushLog();
    process.exit(0);
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('uncaughtException', (err) => {
    log.fatal({ err }, 'uncaught exception; exiting so the supervisor restarts vjd');
    flushLog();
    process.exit(1);
  });
  process.on('unhandledRejection', (err) => {
    log.error({ err }, 'unhandled promise rejection');
  });

  await license.evaluate();
}

/**
 * dataDir only changes at a restart: a reload keeps the running data dir and every path derived from it
 * (a default license file included), while an explicitly configured license file still applies live.
 */
function keepDataDir(running: LoadedConfig, next: LoadedConfig): LoadedConfig {
  if (next.paths.dataDir === running.paths.dataDir) return next;
  const p = running.paths;
  const licenseFile = next.config.license.file === null ? p.licenseFile : next.paths.licenseFile;
  return { ...next, paths: { ...next.paths, dataDir: p.dataDir, stateFile: p.stateFile, runDir: p.runDir, licenseFile } };
}
