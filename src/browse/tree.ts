// The immutable browse tree with per-folder node arrays precomputed for GET /browse. Its root folders are the source
// kinds' (src/sources/kinds/: sources, presets, live inputs, media files), in registry order.
import { createHash } from 'node:crypto';
import type { MediaFile } from '../library/media-library.js';
import { liveBrowseId } from './live-id.js';

/**
 * `sourceType`, `sourcePreset`, `liveInput` or `fileInput`: each source kind names its own items. The pattern keeps
 * them apart from `folder`, so a node's kind still tells folders from items.
 */
export type BrowseItemKind = `source${string}` | `${string}Input`;

export interface BrowseActivate {
  method: 'POST';
  path: string;
  body: Record<string, unknown>;
}

export interface BrowseItem {
  kind: BrowseItemKind;
  id: string;
  name: string;
  thumbnailUrl: string;
  activate: BrowseActivate;
}

export interface FolderNode {
  kind: 'folder';
  id: string;
  name: string;
  activeState: false;
  browsePath: string;
  childCount: number;
  children?: readonly BrowseNode[];
}

export interface ItemNode {
  kind: BrowseItemKind;
  id: string;
  name: string;
  activeState: boolean;
  thumbnailUrl: string;
  activate: BrowseActivate;
}

export type BrowseNode = FolderNode | ItemNode;

export interface TreeFolder {
  readonly browsePath: string;
  readonly parentPath: string | null;
  readonly id: string;
  readonly name: string;
  /** The depth-1 listing (visible children only), frozen and shared by every response. */
  readonly nodes: readonly BrowseNode[];
  /** Parallel to `nodes`: the folder behind a folder node, null for items. */
  readonly subfolders: readonly (TreeFolder | null)[];
  /** Item id → index in `nodes`, to find the active item without a scan. */
  readonly itemIndex: ReadonlyMap<string, number>;
}

export interface BrowseTree {
  /** Every addressable folder by browsePath (empty ones too). */
  readonly folders: ReadonlyMap<string, TreeFolder>;
  /** Visible nodes in the whole tree (folders + items). */
  readonly nodeCount: number;
}

export function folderId(browsePath: string): string {
  return `folder:${createHash('sha256').update(browsePath).digest('hex').slice(0, 16)}`;
}

/** Lower-case; every run of characters outside a-z 0-9 _ becomes `-`; `-` trimmed; empty → `item`. */
export function slugify(name: string): string {
  const s = name
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return s === '' ? 'item' : s;
}

/** A generator (`sourceType`) or source preset (`sourcePreset`): drawn off-screen for its thumbnail. */
export function sourceItem(kind: 'sourceType' | 'sourcePreset', id: string, name: string): BrowseItem {
  return {
    kind,
    id,
    name,
    thumbnailUrl: `/api/v1/thumbnails/source/${id}`,
    activate: { method: 'POST', path: '/api/v1/sources/select', body: { id } },
  };
}

export function fileItem(file: MediaFile): BrowseItem {
  return {
    kind: 'fileInput',
    id: file.id,
    name: file.name,
    thumbnailUrl: `/media/thumbnails/${file.id}`,
    activate: { method: 'POST', path: '/api/v1/inputs/file/select', body: { id: file.id } },
  };
}

export function liveItem(device: { id: string; name: string }): BrowseItem {
  return {
    kind: 'liveInput',
    id: liveBrowseId(device.id),
    name: device.name,
    thumbnailUrl: `/api/v1/thumbnails/live/${encodeURIComponent(device.id)}`,
    activate: { method: 'POST', path: '/api/v1/inputs/live/select', body: { id: device.id } },
  };
}

/** A folder before paths are assigned. `tie` breaks slug collisions and name ties (media: absolute path). */
export interface FolderDraft {
  name: string;
  tie: string;
  slug?: string;
  folders: FolderDraft[];
  items: BrowseItem[];
  /** Items in the caller's order instead of by name. */
  keepOrder: boolean;
}

const byName = (a: { name: string; tie: string }, b: { name: string; tie: string }): number => {
  const x = a.name.toLowerCase();
  const y = b.name.toLowerCase();
  if (x !== y) return x < y ? -1 : 1;
  if (a.name !== b.name) return a.name < b.name ? -1 : 1;
  return a.tie < b.tie ? -1 : a.tie > b.tie ? 1 : 0;
};

/** Sibling slugs made unique: colliding siblings sorted by name then tie; the 2nd gets `-2`, the 3rd `-3`, … */
function assignSlugs(siblings: FolderDraft[]): Map<FolderDraft, string> {
  const out = new Map<FolderDraft, string>();
  const groups = new Map<string, FolderDraft[]>();
  for (const d of siblings) {
    const s = d.slug ?? slugify(d.name);
    groups.set(s, [...(groups.get(s) ?? []), d]);
  }
  const used = new Set(groups.keys());
  for (const [slug, group] of [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    group.sort(byName);
    group.forEach((d, i) => {
      if (i === 0) return void out.set(d, slug);
      // A suffix that is some other sibling's own slug is skipped, so paths stay unique.
      let n = i + 1;
      while (used.has(`${slug}-${n}`)) n++;
      used.add(`${slug}-${n}`);
      out.set(d, `${slug}-${n}`);
    });
  }
  return out;
}

function itemNode(item: BrowseItem): ItemNode {
  const activate = Object.freeze({
    method: item.activate.method,
    path: item.activate.path,
    body: Object.freeze({ ...item.activate.body }),
  });
  return Object.freeze({ kind: item.kind, id: item.id, name: item.name, activeState: false, thumbnailUrl: item.thumbnailUrl, activate });
}

/** The tree over `roots` (each with its slug), which keep their order. */
export function buildBrowseTree(roots: readonly FolderDraft[]): BrowseTree {
  const folders = new Map<string, TreeFolder>();
  let nodeCount = 0;
  const top: FolderDraft = { name: '', tie: '', keepOrder: true, items: [], folders: [...roots] };

  /** Registers the folder and its subtree; returns its visible child count (0: hidden in its parent). */
  const finish = (d: FolderDraft, browsePath: string, parentPath: string | null): { folder: TreeFolder; visible: number } => {
    const slugs = assignSlugs(d.folders);
    // The roots keep the source kinds' order; every other folder lists subfolders by name.
    const ordered = parentPath === null ? d.folders : [...d.folders].sort(byName);
    const nodes: BrowseNode[] = [];
    const subfolders: (TreeFolder | null)[] = [];
    for (const sub of ordered) {
      const slug = slugs.get(sub) as string;
      const path = browsePath === '/' ? `/${slug}` : `${browsePath}/${slug}`;
      const child = finish(sub, path, browsePath);
      if (child.visible === 0) continue;
      nodes.push(
        Object.freeze({
          kind: 'folder',
          id: child.folder.id,
          name: child.folder.name,
          activeState: false,
          browsePath: path,
          childCount: child.visible,
        }),
      );
      subfolders.push(child.folder);
    }
    const items = d.keepOrder ? d.items : [...d.items].sort((a, b) => byName({ name: a.name, tie: a.id }, { name: b.name, tie: b.id }));
    const itemIndex = new Map<string, number>();
    for (const item of items) {
      if (!itemIndex.has(item.id)) itemIndex.set(item.id, nodes.length);
      nodes.push(itemNode(item));
      subfolders.push(null);
    }
    nodeCount += nodes.length;
    const folder: TreeFolder = Object.freeze({
      browsePath,
      parentPath,
      id: folderId(browsePath),
      name: d.name,
      nodes: Object.freeze(nodes),
      subfolders: Object.freeze(subfolders),
      itemIndex,
    });
    folders.set(browsePath, folder);
    return { folder, visible: nodes.length };
  };
  finish(top, '/', null);
  return Object.freeze({ folders, nodeCount });
}
