// What the desk transports may read of the running show, synchronously, so each message maps to one request: the
// chains with their inputs (an input's type and range decide what a fader's value means), and the lists a desk
// selects from by position.
import type { DmxLookup } from '../dmx/map.js';
import { chainWithInputs } from '../effects/chain-inputs.js';
import type { ShowLookup } from '../mqtt/state.js';
import type { ShowTempoLookup } from '../mqtt/link.js';
import type { OscLookup } from '../transports/addresses/entry.js';
import type { Show } from './show.js';
import { packageVersion } from './version.js';

/**
 * `osc` is what a mapper of the address table reads (OSC and MIDI), `dmx` what the DMX frame mapper reads, `show`
 * what the show link publishes as this box's state.
 */
export function transportLookups(show: Show): {
  osc: OscLookup;
  dmx: DmxLookup;
  show: ShowLookup & ShowTempoLookup & { version(): Promise<string> };
} {
  const catalog = () => show.catalog.snapshot;
  const masterChain = () => chainWithInputs({ render: show.render, catalog, modulation: show.modulation });
  return {
    osc: { chain: masterChain, paletteIds: () => show.palettes.list().map((p) => p.id) },
    dmx: {
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
    },
    show: {
      version: packageVersion,
      fps: () => show.renderStatus().fps,
      scene: () => show.scenes.recalled,
      source: () => {
        const e = show.sources.currentEntry();
        return e ? { kind: e.sourceKind, id: e.id, name: e.name } : null;
      },
      clock: () => show.tempo.clock(),
      lock: (shared) => show.tempo.lock(shared),
      tempo: () => {
        const t = show.tempo.view();
        return { bpm: t.bpm, source: t.source, beatsPerBar: t.beatsPerBar };
      },
    },
  };
}
