// Source presets: a generator with saved inputs, listed, drawn and thumbnailed like one.
import { generatorLike } from './generator.js';

export const presetKind = generatorLike('preset', { slug: 'presets', name: 'Presets' }, 'sourcePreset', (from) =>
  from.catalog.presets.map((p) => ({
    id: p.id,
    name: p.name,
    sourceKind: 'preset',
    type: 'generator',
    spec: { kind: 'generator', type: p.source, inputs: p.inputs },
  })),
);
