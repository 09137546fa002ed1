// The desk transports, one registry line each. They are made before the route table (whose GET routes show their
// state), share one dispatch bound once the table exists, and are looped over for all the app needs of them
// (features, feedback, topics, start, stop), so a new transport costs its own folder and a line here.
import type { DmxRouteDeps } from '../api/dmx.js';
import type { MidiRouteDeps } from '../api/midi.js';
import type { ShowRouteDeps } from '../api/show.js';
import type { LoadedConfig } from '../config/load.js';
import { DmxReceiver } from '../dmx/receiver.js';
import type { Logger } from '../log.js';
import { MidiService } from '../midi/service.js';
import { ShowLink } from '../mqtt/link.js';
import { OscServer } from '../osc/server.js';
import type { Dispatch } from '../transports/request.js';
import type { FeedbackBus, Transport } from '../transports/transport.js';
import type { Show } from './show.js';
import { transportLookups } from './transport-lookups.js';
import { TimecodeService } from '../timecode/service.js';
import { ltcControl } from '../timecode/ltc-control.js';

export function createTransports(loaded: LoadedConfig, show: Show, log: Logger) {
  let bound: Dispatch | null = null;
  // A request before `bind` is answered 503; none comes, as the transports start (and HTTP listens) after it.
  const dispatch: Dispatch = (req) => (bound ? bound(req) : Promise.resolve({ status: 503, json: { message: 'not started' } }));
  const lookups = transportLookups(show);
  const { config, paths } = loaded;
  const tc = config.timecode;
  const timecode = new TimecodeService(tc, dispatch, log.child({ module: 'timecode' }), ltcControl(tc, config.audio, show.audioClient));
  const registry = {
    timecode,
    osc: new OscServer(config.osc, dispatch, log, lookups.osc),
    dmx: new DmxReceiver(config.dmx, dispatch, log.child({ module: 'dmx' }), lookups.dmx, tc.source === 'artnet' ? timecode : null),
    midi: new MidiService(
      config.midi,
      paths.dataDir,
      dispatch,
      log.child({ module: 'midi' }),
      lookups.osc,
      tc.source === 'mtc' ? { sink: timecode, port: tc.mtc.port } : null,
    ),
    show: new ShowLink(config.show, paths.show, dispatch, log.child({ module: 'show' }), lookups.show),
  };
  /** In start order; feedback listeners follow it too. */
  const all: readonly Transport[] = Object.values(registry);
  const { dmx, midi } = registry;
  const routes: { dmx: DmxRouteDeps; midi: MidiRouteDeps; show: ShowRouteDeps } = {
    dmx: { stats: () => dmx.stats(), personality: () => dmx.personality, blendModes: () => lookups.dmx.blendModes() },
    midi: {
      stats: () => midi.stats(),
      learn: (spec) => midi.learn(spec),
      enabled: () => config.midi.enabled,
      receive: (port, bytes) => midi.receive(port, bytes),
    },
    show: { stats: () => registry.show.stats() },
  };
  return {
    ...registry,
    routes,
    /** Hands the transports the one dispatch (it exists only once the route table is compiled). */
    bind: (d: Dispatch): void => {
      bound = d;
    },
    start: async (bus: FeedbackBus): Promise<void> => {
      for (const t of all) await t.start(bus);
    },
    stop: (): void => {
      for (const t of all) t.stop();
    },
    features: (): string[] => all.flatMap((t) => t.features()),
    /** Whether any sends feedback: the bus reads topics only while someone listens. */
    sendsFeedback: (): boolean => all.some((t) => t.sendsFeedback),
    wantsTopic: (topic: string): boolean => all.some((t) => t.wantsTopic(topic)),
  };
}
