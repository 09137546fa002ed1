// GET /browse semantics over an immutable BrowseTree: parameter rules, depth expansion, active item, memoised JSON.
//
// vjd's own decisions (also in the route description and docs/api.md, GET /browse):
// - path: absent → `/`; present it must be 1-512 characters of A-Z a-z 0-9 / _ - (`?path=` is INVALID_PATH).
//   Exactly one trailing `/` is dropped, then the rest must equal a folder's browsePath after lower-casing:
//   `/live/` = `/live`, `//` = `/` (one slash dropped), `/live//` and `///` name no folder (PATH_NOT_FOUND);
//   a path without the leading `/` (`sources`) names no folder either (PATH_NOT_FOUND).
// - depth: absent → 1; otherwise exactly the text `1`, `2` or `3`. `01`, `+2`, ` 2`, `2.0`, `1.5`, `abc`, `0`, `4`
//   and the empty string are INVALID_DEPTH. Both are checked (path first) before the folder lookup.
// - Known roots (`/sources`, `/presets`, `/live`, `/files`) and `/live/<provider>` of every configured provider
//   answer 200 with an empty listing while empty (they are hidden from their parent's listing). Any existing media
//   folder does too; a media folder that was deleted answers PATH_NOT_FOUND.
// - activeItemId is a browse node id: the media id for files, `liveInput:<deviceId>` for live inputs, the item id
//   for source types and presets. The first matching item in listing order (depth first) is the only one marked.
import { ApiError } from '../errors.js';
import { LIMITS } from '../limits.js';
import type { BrowseNode, BrowseTree, TreeFolder } from './tree.js';

export interface BrowseResponse {
  path: string;
  parentPath: string | null;
  count: number;
  items: readonly BrowseNode[];
}

const PATH_RE = /^[A-Za-z0-9/_-]+$/;
const DEPTH_RE = /^[123]$/;

/** The folder key for a raw `path` query value; throws INVALID_PATH. */
export function normalizeBrowsePath(raw: string | undefined): string {
  if (raw === undefined) return '/';
  if (raw.length < 1 || raw.length > LIMITS.browse.pathMaxLength || !PATH_RE.test(raw)) throw new ApiError('INVALID_PATH');
  const trimmed = raw.length > 1 && raw.endsWith('/') ? raw.slice(0, -1) : raw;
  return trimmed.toLowerCase();
}

/** The depth for a raw `depth` query value; throws INVALID_DEPTH. */
export function parseBrowseDepth(raw: string | undefined): 1 | 2 | 3 {
  if (raw === undefined) return 1;
  if (!DEPTH_RE.test(raw)) throw new ApiError('INVALID_DEPTH');
  return Number(raw) as 1 | 2 | 3;
}

/** Both parameters are checked (400s) before the folder is looked up (404). */
function resolve(tree: BrowseTree, rawPath: string | undefined, rawDepth: string | undefined): { folder: TreeFolder; depth: 1 | 2 | 3 } {
  const key = normalizeBrowsePath(rawPath);
  const depth = parseBrowseDepth(rawDepth);
  const folder = tree.folders.get(key);
  if (folder === undefined) throw new ApiError('PATH_NOT_FOUND', `no folder at ${key}`);
  return { folder, depth };
}

interface Active {
  id: string | null;
  done: boolean;
}

/** Whether the active item sits anywhere in the `depth` levels below `folder` (then copies are needed). */
function holdsActive(folder: TreeFolder, depth: number, active: Active): boolean {
  if (active.id === null || active.done) return false;
  if (folder.itemIndex.has(active.id)) return true;
  if (depth <= 1) return false;
  return folder.subfolders.some((sub) => sub !== null && holdsActive(sub, depth - 1, active));
}

/** Children of `folder` expanded `depth` levels; shares the precomputed frozen array whenever nothing differs. */
function listNodes(folder: TreeFolder, depth: number, active: Active): readonly BrowseNode[] {
  if (depth === 1 && !holdsActive(folder, 1, active)) return folder.nodes;
  const out = new Array<BrowseNode>(folder.nodes.length);
  for (let i = 0; i < folder.nodes.length; i++) {
    const node = folder.nodes[i] as BrowseNode;
    const sub = folder.subfolders[i];
    if (sub && depth > 1) out[i] = { ...node, children: listNodes(sub, depth - 1, active) } as BrowseNode;
    else if (node.kind !== 'folder' && !active.done && node.id === active.id) {
      out[i] = { ...node, activeState: true };
      active.done = true;
    } else out[i] = node;
  }
  return out;
}

/** GET /browse as an object. Throws ApiError INVALID_PATH, INVALID_DEPTH or PATH_NOT_FOUND. */
export function listBrowse(
  tree: BrowseTree,
  rawPath: string | undefined,
  rawDepth: string | undefined,
  activeItemId: string | null,
): BrowseResponse {
  const { folder, depth } = resolve(tree, rawPath, rawDepth);
  const items = listNodes(folder, depth, { id: activeItemId, done: false });
  return { path: folder.browsePath, parentPath: folder.parentPath, count: items.length, items };
}

const JSON_CACHE_MAX = 256;
const jsonCache = new WeakMap<BrowseTree, Map<string, Buffer>>();

/**
 * GET /browse serialized, memoised per tree and (folder, depth, active id that matters): a tree is immutable,
 * so a repeated request costs a map lookup. The cache dies with the tree.
 */
export function listBrowseJson(
  tree: BrowseTree,
  rawPath: string | undefined,
  rawDepth: string | undefined,
  activeItemId: string | null,
): string {
  return listBrowseBytes(tree, rawPath, rawDepth, activeItemId).toString('utf8');
}

/**
 * The same answer as UTF-8 bytes, which is what is cached: a 5000-node listing is over 1 MiB, and handing the
 * HTTP engine a string would re-encode it on every request.
 */
export function listBrowseBytes(
  tree: BrowseTree,
  rawPath: string | undefined,
  rawDepth: string | undefined,
  activeItemId: string | null,
): Buffer {
  const { folder, depth } = resolve(tree, rawPath, rawDepth);
  // The active id only changes the bytes when that item is inside the listed levels.
  const relevant = holdsActive(folder, depth, { id: activeItemId, done: false }) ? activeItemId : null;
  const key = `${folder.browsePath}\n${depth}\n${relevant ?? ''}`;
  let cache = jsonCache.get(tree);
  if (cache === undefined) jsonCache.set(tree, (cache = new Map()));
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const items = listNodes(folder, depth, { id: relevant, done: false });
  const bytes = Buffer.from(JSON.stringify({ path: folder.browsePath, parentPath: folder.parentPath, count: items.length, items }));
  if (cache.size >= JSON_CACHE_MAX) cache.clear();
  cache.set(key, bytes);
  return bytes;
}
