// Generators: every ISF generator in the catalog, drawn by the render worker with its default inputs. Presets are
// generators too (generatorLike): the same browse folder shape, off-screen thumbnails and first-run choice.
import { listFolder } from '../../browse/folders.js';
import { sourceItem } from '../../browse/tree.js';
import type { KindEntry, KindInputs, SourceKindDescriptor } from './types.js';

/** A kind whose entries the render worker draws with a generator; `item` is its browse item kind. */
export function generatorLike<K extends string>(
  kind: K,
  folder: { slug: string; name: string },
  item: 'sourceType' | 'sourcePreset',
  entries: (from: KindInputs) => Array<KindEntry<K>>,
): SourceKindDescriptor<K> {
  return {
    kind,
    entries,
    folder,
    browse: (from) => listFolder(entries(from).map((e) => sourceItem(item, e.id, e.name))),
    thumbnail: 'source',
    restore: 'start',
    // A generator always moves, so a fresh data dir may start on one.
    selectedBy: ['source', 'first-run'],
    // Only when its shader file (or a preset's generator) is gone.
    notAGenerator: 'a source without a generator',
  };
}

export const generatorKind = generatorLike('generator', { slug: 'sources', name: 'Sources' }, 'sourceType', (from) =>
  from.catalog.generators.map((g) => ({
    id: `source:${g.type}`,
    name: g.name,
    sourceKind: 'generator',
    type: 'generator',
    spec: { kind: 'generator', type: g.type, inputs: {} },
  })),
);
