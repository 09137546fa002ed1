// The source kinds, one descriptor each: adding a kind is its file and one line in SOURCE_KIND_LIST. The order is
// the order of the source list, of browse's root folders and of name matching among kinds.
import type { FolderDraft } from '../../browse/tree.js';
import { fileKind } from './file.js';
import { generatorKind } from './generator.js';
import { liveKind } from './live.js';
import { presetKind } from './preset.js';
import type { BrowseInputs, KindEntry, KindInputs, RestorePhase, Selector, SourceKindDescriptor } from './types.js';

export const SOURCE_KIND_LIST = [generatorKind, presetKind, liveKind, fileKind] as const;

export type SourceKind = (typeof SOURCE_KIND_LIST)[number]['kind'];
export type SourceEntry = KindEntry<SourceKind>;

const KINDS: readonly SourceKindDescriptor<SourceKind>[] = SOURCE_KIND_LIST;

export function sourceKindOf(kind: SourceKind): SourceKindDescriptor<SourceKind> {
  return KINDS.find((k) => k.kind === kind)!;
}

/** The entries of every kind (or of those `which` picks), kind after kind. */
export function sourceEntries(from: KindInputs, which: (k: SourceKindDescriptor<SourceKind>) => boolean = () => true): SourceEntry[] {
  return KINDS.filter(which).flatMap((k) => k.entries(from));
}

/** Browse's root folders, one per kind. */
export function browseRoots(from: BrowseInputs): FolderDraft[] {
  return KINDS.map((k) => ({ ...k.browse(from), ...k.folder }));
}

/** The kinds a select route (or config `sources.firstRun`) chooses among. */
export function kindsSelectedBy(selector: Selector): SourceKind[] {
  return KINDS.filter((k) => k.selectedBy.includes(selector)).map((k) => k.kind);
}

/** When a saved `{kind, id}` comes back; a kind vjd does not know (an old state.json) is tried at start. */
export function restorePhase(kind: string | undefined): RestorePhase {
  return KINDS.find((k) => k.kind === kind)?.restore ?? 'start';
}

export type { BrowseInputs, EntrySpec, KindInputs, RestorePhase, Selector, SourceKindDescriptor } from './types.js';
