// The desk transports wired to the show: the DMX receiver and its lookup of the running show, created before the
// route table (whose GET routes show their state) and bound to the one dispatch once it exists.
import type { LoadedConfig } from '../config/load.js';
import type { Logger } from '../log.js';
import type { NeutralReply, NeutralRequest } from '../http/dispatch.js';
import { DmxReceiver } from '../dmx/receiver.js';
import type { DmxLookup } from '../dmx/map.js';
import type { DmxRouteDeps } from '../api/dmx.js';
import type { MidiRouteDeps } from '../api/midi.js';
import { MidiService } from '../midi/service.js';
import type { StateBus } from '../events/bus.js';
import { chainWithInputs } from '../api/effects.js';
import type { Show } from './show.js';

export interface Desks {
  dmx: DmxReceiver;
  midi: MidiService;
  routes: { dmx: DmxRouteDeps; midi: MidiRouteDeps };
  /** Hands the transports the one dispatch and the state bus (they exist only once the route table is compiled). */
  bind(dispatch: (req: NeutralRequest) => Promise<NeutralReply>, bus: StateBus): void;
  /** Whether MIDI feedback needs the bus to read topics. */
  sendsFeedback(): boolean;
  wantsTopic(topic: string): boolean;
  start(): Promise<void>;
  stop(): void;
  features(): string[];
  version(): number;
}

export function createDesks(loaded: LoadedConfig, show: Show, log: Logger): Desks {
  let dispatch: ((req: NeutralRequest) => Promise<NeutralReply>) | null = null;
  const late = (req: NeutralRequest): Promise<NeutralReply> =>
    dispatch ? dispatch(req) : Promise.resolve({ status: 503, json: { message: 'not started' } });
  const catalog = () => show.catalog.snapshot;
  const masterChain = () => chainWithInputs({ render: show.render, catalog, modulation: show.modulation });
  const lookup: DmxLookup = {
    sourceIds: () => show.sources.list().map((e) => e.id),
    sceneIds: () => show.scenes.list().map((sc) => sc.id),
    transitions: () => show.catalog.snapshot.transitions.map((t) => t.type),
    chain: (layer) => {
      if (layer === null) return masterChain();
      const l = show.layers.layers()[layer - 1];
      return l ? chainWithInputs({ render: l.render, catalog }) : null;
    },
    layers: () => ({ selected: show.layers.positionOf(show.layers.selected()), count: show.layers.layers().length }),
    blendModes: () => show.blends(),
  };
  const dmx = new DmxReceiver(loaded.config.dmx, late, log.child({ module: 'dmx' }), lookup);
  const midi = new MidiService(loaded.config.midi, loaded.paths.dataDir, late, log.child({ module: 'midi' }), {
    chain: masterChain,
    paletteIds: () => show.palettes.list().map((p) => p.id),
  });
  return {
    dmx,
    midi,
    routes: {
      dmx: { stats: () => dmx.stats(), personality: () => dmx.personality, blendModes: () => lookup.blendModes() },
      midi: {
        stats: () => midi.stats(),
        learn: (spec) => midi.learn(spec),
        enabled: () => loaded.config.midi.enabled,
        receive: (port, bytes) => midi.receive(port, bytes),
      },
    },
    bind: (d, bus) => {
      dispatch = d;
      midi.follow(bus);
    },
    start: async () => {
      await dmx.start();
      await midi.start();
    },
    stop: () => {
      dmx.stop();
      midi.stop();
    },
    features: () => [...(dmx.listening ? ['dmx'] : []), ...(loaded.config.midi.enabled ? ['midi'] : [])],
    version: () => dmx.version,
    sendsFeedback: () => midi.sendsFeedback,
    wantsTopic: (topic) => midi.wantsTopic(topic),
  };
}
