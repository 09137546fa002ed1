// What the source kinds put in their root folders of the browse tree: a flat list kept in the caller's order, a
// folder per live provider, or the media library's folders (a single library root is the folder itself).
import type { MediaFolder, MediaSnapshot } from '../library/media-library.js';
import { fileItem, slugify, type BrowseItem, type FolderDraft } from './tree.js';

/** A root folder's content; its name and slug are the source kind's. */
export type FolderContent = Omit<FolderDraft, 'name' | 'slug'>;

/** Items in the caller's order. */
export function listFolder(items: BrowseItem[]): FolderContent {
  return { tie: '', folders: [], items, keepOrder: true };
}

/** One folder per live provider type (`<root>/<slug of provider>`, named `label`); items in enumeration order. */
export function providerFolders(groups: ReadonlyArray<{ provider: string; label: string; items: BrowseItem[] }>): FolderContent {
  return {
    tie: '',
    keepOrder: true,
    items: [],
    folders: groups.map((p) => ({
      name: p.label,
      tie: p.provider,
      slug: slugify(p.provider),
      folders: [],
      items: p.items,
      keepOrder: true,
    })),
  };
}

/** The library's roots as folders; a single root's folders and files directly. */
export function mediaFolders(media: MediaSnapshot): FolderContent {
  const roots = media.roots;
  if (roots.length === 1 && roots[0] !== undefined) return mediaContent(roots[0].path, roots[0]);
  return { tie: '', folders: roots.map((r) => ({ name: r.name, ...mediaContent(r.path, r) })), items: [], keepOrder: false };
}

function mediaContent(tie: string, folder: MediaFolder): FolderContent {
  return {
    tie,
    folders: folder.folders.map((f) => ({ name: f.name, ...mediaContent(f.path, f) })),
    items: folder.files.map(fileItem),
    keepOrder: false,
  };
}
