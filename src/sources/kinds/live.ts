// Live inputs: what the live providers enumerate (test patterns, streams, capture devices), read by an ingest
// reader; only inputs that can be opened now are listed.
import { providerFolders } from '../../browse/folders.js';
import { liveBrowseId } from '../../browse/live-id.js';
import { liveItem } from '../../browse/tree.js';
import type { SourceKindDescriptor } from './types.js';

export const liveKind: SourceKindDescriptor<'live'> = {
  kind: 'live',
  entries: (from) =>
    from.live
      .filter((l) => l.available)
      .map((l) => ({ id: l.id, name: l.name, sourceKind: 'live', type: 'live', spec: { kind: 'reader', input: l.input, live: true } })),
  folder: { slug: 'live', name: 'Live Inputs' },
  browse: (from) =>
    providerFolders(
      from.providers.map((p) => ({
        provider: p.type,
        label: p.label,
        items: from.live.filter((l) => l.provider === p.type && l.available).map(liveItem),
      })),
    ),
  browseId: liveBrowseId,
  thumbnail: 'live',
  restore: 'start',
  selectedBy: ['source', 'live'],
  notAGenerator: 'a live input',
};
