// GET /browse: one folder of the browse tree (sources, presets, live inputs, media files), answered from the newest immutable tree.
import Type, { type TSchema } from 'typebox';
import { defineRoute, API_PREFIX, type RouteDef } from '../http/route.js';
import { ApiError } from '../errors.js';
import { listBrowseBytes } from '../browse/listing.js';
import type { BrowseTree } from '../browse/tree.js';

export interface BrowseDeps {
  /** The newest tree (rebuilt elsewhere when sources, presets, devices or media change). */
  tree(): BrowseTree;
  /** Browse node id of the current source (`liveInput:<deviceId>` for a live input, the media id for a file), or null. */
  activeItemId(): string | null;
}

const Activate = Type.Object({
  method: Type.Literal('POST'),
  path: Type.String({ description: 'absolute route path including /api/v1' }),
  body: Type.Object({ id: Type.String() }, { description: 'send unchanged as the JSON body' }),
});

const ItemNode = Type.Object(
  {
    kind: Type.String({ description: '`liveInput`, `fileInput`, `sourceType` or `sourcePreset`' }),
    id: Type.String({ description: '`liveInput:<deviceId>` for a live input, the media id (`media-<16 hex>`) for a file' }),
    name: Type.String(),
    activeState: Type.Boolean({ description: 'true on the item that GET /sources/current reports (at most one per response)' }),
    thumbnailUrl: Type.String({
      description: '`/api/v1/thumbnails/live/<deviceId>` for live inputs, `/media/thumbnails/<mediaId>` for files',
    }),
    activate: Activate,
  },
  { description: 'an item (non-folder) node' },
);

/** Folder node whose `children` hold nodes of the next level (`child` is that level's node schema, or none). */
function folderNode(child: TSchema | null): TSchema {
  const base = {
    kind: Type.Literal('folder'),
    id: Type.String({ description: '`folder:<16 hex of sha256 of browsePath>`, stable for a path' }),
    name: Type.String(),
    activeState: Type.Literal(false),
    browsePath: Type.String({ description: 'lower-case path; usable as `path` of this route' }),
    childCount: Type.Integer({ minimum: 1, description: 'visible children (empty folders are not listed, so at least 1)' }),
  };
  return child === null
    ? Type.Object(base, { description: 'a folder node' })
    : Type.Object(
        {
          ...base,
          children: Type.Optional(
            Type.Array(child, { description: 'present when depth ≥ 2; equals a direct request for browsePath with depth − 1' }),
          ),
        },
        { description: 'a folder node' },
      );
}

// depth ≤ 3 bounds the nesting at two levels of `children`, so the schema is finite (no $ref cycles in OpenAPI 3.0).
const Level3 = Type.Union([folderNode(null), ItemNode]);
const Level2 = Type.Union([folderNode(Level3), ItemNode]);
const Level1 = Type.Union([folderNode(Level2), ItemNode]);

export const BrowseBody = Type.Object({
  path: Type.String({ description: 'the folder listed (its browsePath)' }),
  parentPath: Type.Union([Type.String(), Type.Null()], { description: 'null at the root' }),
  count: Type.Integer({ minimum: 0, description: 'number of items' }),
  items: Type.Array(Level1, { description: 'always an array; [] for an empty folder' }),
});

const DESCRIPTION = [
  'Lists one folder. Roots, in order: `/sources`, `/presets`, `/live` (one folder per provider type, `/live/<provider>`), `/files` (media folders; with one media root its contents are listed directly, with several each root is a folder named after its base name).',
  'Folders and items without visible children are left out of their parent (and of `childCount`); the known roots and `/live/<provider>` of every configured provider still answer 200 with an empty listing. A deleted media folder answers PATH_NOT_FOUND.',
  'Order: subfolders first by name, then items by name (case-insensitive); `/sources` and `/presets` keep their own order, `/live/<provider>` keeps enumeration order.',
  '`path`: default `/`; 1-512 characters of A-Z a-z 0-9 / _ -, else INVALID_PATH (an empty `path=` too). Matching is case-insensitive. Exactly one trailing `/` is ignored: `/live/` = `/live`, `//` = `/`, but `/live//` names no folder. A path must start with `/`.',
  '`depth`: default 1; exactly `1`, `2` or `3` (no sign, no leading zero, no decimals), else INVALID_DEPTH. Depth 2 adds `children` to the listed folders, depth 3 also to their subfolders; `children` equal a direct request for that browsePath with depth − 1.',
  'Both parameters are validated (path first) before the folder is looked up. browsePath segments are slugs of names (lower-case, other characters → `-`); colliding siblings get `-2`, `-3`, … in name order.',
].join('\n\n');

export function browseRoutes(deps: BrowseDeps): RouteDef[] {
  return [
    defineRoute({
      method: 'GET',
      path: `${API_PREFIX}/browse`,
      auth: 'required',
      operationId: 'browse',
      summary: 'List one folder of sources, presets, live inputs and media files',
      description: DESCRIPTION,
      tags: ['browse'],
      feature: 'browse',
      schema: {
        // The same rules listBrowse applies, so the description states them; path is checked first (property order).
        query: Type.Object({
          path: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: 512,
              pattern: '^[A-Za-z0-9/_-]+$',
              default: '/',
              description: 'folder browsePath, 1-512 characters of A-Z a-z 0-9 / _ -, else 400 INVALID_PATH',
            }),
          ),
          // The exact text, not a number: `01`, `+2` and `2.0` are INVALID_DEPTH.
          depth: Type.Optional(
            Type.Union([Type.Literal('1'), Type.Literal('2'), Type.Literal('3')], {
              default: '1',
              description: 'levels to list: exactly `1`, `2` or `3`, else 400 INVALID_DEPTH',
            }),
          ),
        }),
      },
      invalid: (_where, problem) => new ApiError(problem.startsWith('query.depth') ? 'INVALID_DEPTH' : 'INVALID_PATH'),
      responses: { 200: { description: 'the folder listing', schema: BrowseBody } },
      errors: ['INVALID_PATH', 'INVALID_DEPTH', 'PATH_NOT_FOUND'],
      handler: (req) => ({ jsonText: listBrowseBytes(deps.tree(), req.query.path, req.query.depth, deps.activeItemId()) }),
    }),
  ];
}
