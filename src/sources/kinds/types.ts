// What a source kind is: one descriptor holding how the show lists its sources and how they are drawn, its root
// folder in browse, the thumbnail route that draws them, when a saved one comes back, which select routes take
// it, and how errors name it.
import type { CatalogSnapshot } from '../../catalog/catalog.js';
import type { LiveInput, LiveProvider } from '../../inputs/providers.js';
import type { MediaSnapshot } from '../../library/media-library.js';
import type { IngestInput } from '../../shared/messages.js';
import type { FolderContent } from '../../browse/folders.js';

/** How a source is drawn: by the render worker itself, or from the ring an ingest reader fills. */
export type EntrySpec =
  | { kind: 'generator'; type: string; inputs: Record<string, unknown> }
  /** `live` inputs show the no-signal card when their frames stop. */
  | { kind: 'reader'; input: IngestInput; live: boolean };

/** One selectable source of kind `K`. */
export interface KindEntry<K extends string> {
  id: string;
  name: string;
  sourceKind: K;
  /** `live`, `video`, `image` or `generator` (presets are generators with saved inputs). */
  type: string;
  spec: EntrySpec;
}

/** What the show builds its source list from (rebuilt whenever one of them changes). */
export interface KindInputs {
  catalog: CatalogSnapshot;
  /** As last enumerated, unavailable ones too. */
  live: readonly LiveInput[];
  media: MediaSnapshot;
}

/** Browse groups live inputs by the provider that found them. */
export interface BrowseInputs extends KindInputs {
  providers: readonly LiveProvider[];
}

/** Who selects by kind: POST /sources/select, /inputs/live/select, /inputs/file/select, and config `sources.firstRun`. */
export type Selector = 'source' | 'live' | 'file' | 'first-run';

/** When a saved selection comes back: at start, or once the media library's first scan is done (before it, the entry does not exist). */
export type RestorePhase = 'start' | 'scan';

export interface SourceKindDescriptor<K extends string> {
  kind: K;
  /** Its entries in the source list, in list order. */
  entries(from: KindInputs): Array<KindEntry<K>>;
  /** Its root folder in browse. */
  folder: { slug: string; name: string };
  browse(from: BrowseInputs): FolderContent;
  /** The browse node id of an entry's item, when it is not the entry id. */
  browseId?(id: string): string;
  /** The thumbnail route that draws it: `source` renders it off-screen, `live` reads its input, `media` its poster. */
  thumbnail: 'source' | 'live' | 'media';
  restore: RestorePhase;
  selectedBy: readonly Selector[];
  /** How 409 NOT_A_GENERATOR names a program source of this kind ("the program source X is …"). */
  notAGenerator: string;
}
