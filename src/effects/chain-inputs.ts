// The chain with each item's inputs and their values, read from the render worker's newest snapshot: what GET
// /effects/params and the OSCQuery description show, and what the desks read an effect input's type and range from.
import type { CatalogSnapshot } from '../catalog/catalog.js';
import type { Modulation } from '../modulation/service.js';
import { chainLive, withModulation, type ModulatedState } from '../modulation/views.js';
import { inputStates } from '../shared/param-values.js';
import type { ChainItem } from '../shared/protocol/render.js';
import type { RenderClient } from '../workers/render-client.js';

export interface ChainInputsDeps {
  /** The master chain's render client, or a layer's chain. */
  render: Pick<RenderClient, 'readChain'>;
  catalog(): CatalogSnapshot;
  /** Live values of modulated inputs (absent: every `live` reads null). */
  modulation?: Modulation;
}

export type ChainItemInputs = ChainItem & { inputs: ModulatedState[] };

/** Every chain item with its inputs and their values. */
export function chainWithInputs(d: ChainInputsDeps): ChainItemInputs[] {
  const snap = d.render.readChain();
  const effects = d.catalog().effects;
  return snap.items.map((item, i) => {
    const desc = effects.find((e) => e.type === item.type);
    const entry = snap.entries[i];
    // `live` as of this read: the topic sends on changes only, never per frame.
    const live = chainLive(d.modulation?.live ?? null, snap.version, i + 1);
    const inputs = desc && entry ? withModulation(inputStates(desc.inputs, entry.inputs), entry.modulators, live) : [];
    return { ...item, inputs };
  });
}
