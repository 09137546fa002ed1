// Thumbnail routes: live inputs, the current output, generators and presets, media files and palettes. Every one
// takes `size` and `format`, sends `ETag` and `Cache-Control: no-cache`, and answers 304 to a matching If-None-Match.
import Type, { type TSchema } from 'typebox';
import { defineRoute, API_PREFIX, type Reply, type ResponseDoc, type RouteDef } from '../http/route.js';
import type { ImageFormat } from '../shared/protocol/encode.js';
import { ApiError, type ErrorCode } from '../errors.js';
import { parseFormat, parseSize } from '../thumbnails/params.js';
import type { ThumbnailService, ThumbResult } from '../thumbnails/service.js';

// Lenient by design (docs/api.md, "Limits"): any text is accepted, so the description types them as strings, not integers or enums.
const Query = Type.Object({
  size: Type.Optional(
    Type.String({
      default: '192',
      examples: ['192'],
      description:
        'longest edge in pixels: a whole decimal number is clamped to 32-512; anything else (decimals, words, hex, empty) takes the default 192',
    }),
  ),
  format: Type.Optional(
    Type.String({ default: 'png', examples: ['jpg'], description: '`png` or `jpg`; any other value takes the default `png`' }),
  ),
});

const ETAG_FORM = '`"<kind>-<width>x<height>-<format>-<digest>"`; a digest starting with `p` marks a placeholder';
const ETAG = Type.String({
  pattern: '^"(live|current|source|media|palette|layer|effect)-[0-9]+x[0-9]+-(png|jpg)-[^"]+"$',
  description: ETAG_FORM,
});

/**
 * The 200 and 304 of an image route: both carry `ETag` (`etag`: its schema and form) and `Cache-Control: no-cache`,
 * so a client revalidates. Every image route declares its answers through this.
 */
export function imageResponses(
  etag: { schema: TSchema; description: string },
  image: Pick<ResponseDoc, 'description' | 'contentType' | 'altContentTypes'>,
): Record<200 | 304, ResponseDoc> {
  const cacheControl = { description: 'always `no-cache`', schema: Type.Literal('no-cache', { description: 'always `no-cache`' }) };
  return {
    200: { ...image, headers: { ETag: etag, 'Cache-Control': cacheControl } },
    304: {
      description: 'If-None-Match equals the current ETag: no body',
      headers: { ETag: { description: 'the current ETag', schema: etag.schema }, 'Cache-Control': cacheControl },
    },
  };
}

const IMAGES = imageResponses(
  { schema: ETAG, description: ETAG_FORM },
  {
    description: 'the image; `Content-Type` image/png or image/jpeg as `format` asks',
    contentType: 'image/png',
    altContentTypes: ['image/jpeg'],
  },
);
const RESPONSES = {
  200: IMAGES[200],
  304: { ...IMAGES[304], description: `${IMAGES[304].description}; answered before any render or encode work is queued` },
};
const QUEUE_ERRORS: ErrorCode[] = ['PREVIEW_TIMEOUT', 'THUMBNAIL_QUEUE_FULL'];

const COMMON = [
  "`size` (default 192) is the longest edge; the other edge follows the subject's aspect ratio. `format` is `png` (default) or `jpg`.",
  'The answer carries `ETag` `"<kind>-<width>x<height>-<format>-<digest>"` and `Cache-Control: no-cache`; a request whose `If-None-Match` equals the current ETag gets 304 without a body, decided from counters before any work is queued.',
  'Ids longer than 256 characters match nothing (404).',
  'Work goes through one queue shared by all thumbnail routes: depth counts queued plus running jobs; above 32 new work is answered 503 THUMBNAIL_QUEUE_FULL (with `Retry-After: 1`) until the depth falls to 16. Identical concurrent requests share one job. The render worker must finish the readback within 500 ms of receiving the job, else 503 PREVIEW_TIMEOUT.',
].join('\n\n');

export interface ImageRouteSpec {
  path: string;
  operationId: string;
  summary: string;
  description: string;
  feature: string;
  /** Description of the `:id` parameter; null for routes without one. */
  id: string | null;
  /** What an id that is too long answers (it matches nothing): the route's not-found code. */
  notFound?: ErrorCode;
  errors: ErrorCode[];
  serve: (id: string, size: number, format: ImageFormat, ifNoneMatch: string) => Promise<ThumbResult>;
}

/** One image route: the shared query, responses, error mapping and parameter parsing around a service call. */
export function imageRoute(r: ImageRouteSpec): RouteDef {
  return defineRoute({
    method: 'GET',
    auth: 'required',
    tags: ['thumbnails'],
    // Only the id can fail its schema (the query is lenient); an id over 256 characters matches nothing: 404.
    invalid: () => new ApiError(r.notFound ?? 'INVALID_REQUEST', 'the id is longer than 256 characters and matches nothing'),
    path: r.path,
    operationId: r.operationId,
    summary: r.summary,
    description: [r.description, COMMON].join('\n\n'),
    feature: r.feature,
    schema: {
      ...(r.id !== null ? { params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 256, description: r.id }) }) } : {}),
      query: Query,
    },
    responses: RESPONSES,
    errors: [...r.errors, ...QUEUE_ERRORS],
    handler: (req) => {
      const query = req.query as { size?: string; format?: string };
      const params = req.params as { id?: string } | undefined;
      return r.serve(params?.id ?? '', parseSize(query.size), parseFormat(query.format), req.headers['if-none-match']).then(imageReply);
    },
  });
}

/**
 * 304 when the client has the image, else the image; both carry the ETag and `Cache-Control: no-cache`. The image's
 * ETag goes through the adapter's conditional check too: an image made for a newer plan may still be the one the
 * client holds, and then it gets 304, not the same bytes again.
 */
function imageReply(r: ThumbResult): Reply {
  if (r.image === null) return { status: 304, headers: { ETag: r.etag, 'Cache-Control': 'no-cache' } };
  return { status: 200, body: r.image.bytes, contentType: r.image.contentType, headers: { 'Cache-Control': 'no-cache' }, etag: r.etag };
}

/** `layerId`: the id of the layer at a position (1-based, as text), or null when there is none. */
export function thumbnailRoutes(svc: ThumbnailService, layerId?: (position: string) => number | null): RouteDef[] {
  const liveMissing = () => {
    throw new ApiError('DEVICE_NOT_FOUND', 'the live input id is empty');
  };
  // An empty id never reaches the `:id` route (no segment to match); it is still DEVICE_NOT_FOUND, not a missing route.
  const empty = (path: string, operationId: string): RouteDef =>
    defineRoute({
      method: 'GET',
      auth: 'required',
      tags: ['thumbnails'],
      path,
      operationId,
      summary: 'Empty live input id',
      hidden: true,
      schema: {},
      responses: {},
      errors: ['DEVICE_NOT_FOUND'],
      handler: liveMissing,
    });
  return [
    imageRoute({
      path: `${API_PREFIX}/thumbnails/live/:id`,
      operationId: 'getLiveThumbnail',
      summary: 'Preview image of one live input',
      description: [
        '`id`: 1-256 characters; the device id (or `liveInput:<id>`) matched exactly first, then flexible name matching on name and id; on a tie the first input in enumeration order wins. Empty, longer than 256 or unmatched: 404 DEVICE_NOT_FOUND.',
        "A frame from the last 2000 ms is a live frame (kind `live`, a new ETag per frame). Otherwise the image is a placeholder card with the input's name and provider type; its digest starts with `p` and stays the same while the input stays disconnected or stale. An input that is not the current source is opened for preview (at most 512 px, 5 fps) on the first request; the first answers are placeholders, live frames follow; the preview closes after 20 s without requests. A placeholder keeps the input's last known aspect ratio (16:9 before any frame was seen).",
      ].join('\n\n'),
      feature: 'live-thumbnails',
      id: 'device id or name, 1-256 characters (longer: 404 DEVICE_NOT_FOUND)',
      notFound: 'DEVICE_NOT_FOUND',
      errors: ['DEVICE_NOT_FOUND'],
      serve: (id, size, format, inm) => svc.live(id, size, format, inm),
    }),
    empty(`${API_PREFIX}/thumbnails/live/`, 'getLiveThumbnailEmpty'),
    empty(`${API_PREFIX}/thumbnails/live`, 'getLiveThumbnailNone'),
    imageRoute({
      path: `${API_PREFIX}/thumbnails/current`,
      operationId: 'getCurrentThumbnail',
      summary: 'Image of the current output (after effects, dimmer and blackout)',
      description: 'Kind `current`; the digest follows the output frame number, so a running output gives a new ETag per frame.',
      feature: 'output-thumbnail',
      id: null,
      errors: [],
      serve: (_id, size, format, inm) => svc.current(size, format, inm),
    }),
    ...(layerId
      ? [
          imageRoute({
            path: `${API_PREFIX}/thumbnails/layer/:id`,
            operationId: 'getLayerThumbnail',
            summary: 'Image of one layer after its own chain, before blending (position 1 is the bottom)',
            description:
              'Kind `layer`; the digest follows the output frame number as `current` does. A layer not drawn in the last frame (muted, hidden by solo, transparent, or the only layer) is drawn for the request, and keeps its own picture for a few seconds so a strip of thumbnails reads frames. A position outside the stack: 404 LAYER_NOT_FOUND.',
            feature: 'layers',
            id: 'the layer position, 1 is the bottom',
            notFound: 'LAYER_NOT_FOUND',
            errors: ['LAYER_NOT_FOUND'],
            serve: (id, size, format, inm) => {
              const layer = layerId(id);
              if (layer === null) throw new ApiError('LAYER_NOT_FOUND', `no layer ${id.slice(0, 16)} in the stack`);
              return svc.layer(layer, size, format, inm);
            },
          }),
        ]
      : []),
    imageRoute({
      path: `${API_PREFIX}/thumbnails/source/:id`,
      operationId: 'getSourceThumbnail',
      summary: 'Image of a generator (`source:<type>`) or source preset (`preset:<name>`), rendered off-screen',
      description:
        'The generator is drawn off-screen at render size at TIME = 2 s with its default inputs (a preset: its saved inputs), so the image and its ETag (kind `source`) stay the same until the shader file or the preset changes. The `id` is matched exactly first, then by flexible name matching; unknown: 404 ITEM_NOT_FOUND with `details {requested, kind, available}`.',
      feature: 'source-thumbnails',
      id: '`source:<type>` or `preset:<name>` as browse hands out, 1-256 characters (longer: 404 ITEM_NOT_FOUND)',
      notFound: 'ITEM_NOT_FOUND',
      errors: ['ITEM_NOT_FOUND'],
      serve: (id, size, format, inm) => svc.source(id, size, format, inm),
    }),
    imageRoute({
      path: `${API_PREFIX}/thumbnails/palette/:id`,
      operationId: 'getPaletteThumbnail',
      summary: 'Swatches of a palette in palette order',
      description:
        'Equal-width vertical bars, left to right in palette order, four times wider than high (`size` is the width). Kind `palette`; the digest is `v<content version>.<content hash>`, so editing the palette file changes the ETag. Unknown id: 404 ITEM_NOT_FOUND.',
      feature: 'palette-thumbnails',
      id: 'palette id, or its name (flexible matching), 1-256 characters (longer: 404 ITEM_NOT_FOUND)',
      notFound: 'ITEM_NOT_FOUND',
      errors: ['ITEM_NOT_FOUND'],
      serve: (id, size, format, inm) => svc.palette(id, size, format, inm),
    }),
    imageRoute({
      path: `/media/thumbnails/:id`,
      operationId: 'getMediaThumbnail',
      summary: 'Poster image of a media file (the `thumbnailUrl` browse hands out for files)',
      description: [
        'A poster frame (1 s in, or 10% of a short clip; the image itself for stills) is extracted once with ffmpeg and cached under `<dataDir>/cache/posters` by media id, file size and mtime, so a changed file gets a new poster and a new ETag (kind `media`). A file ffmpeg cannot read answers with a placeholder card (digest `p…`). Unknown id: 404 ITEM_NOT_FOUND.',
        'This route lives outside `/api/v1` because browse hands out this URL; the API key applies as on every protected route.',
      ].join('\n\n'),
      feature: 'media-thumbnails',
      id: 'media id `media-<16 hex>`, at most 256 characters (longer: 404 ITEM_NOT_FOUND)',
      notFound: 'ITEM_NOT_FOUND',
      errors: ['ITEM_NOT_FOUND'],
      serve: (id, size, format, inm) => svc.media(id, size, format, inm),
    }),
  ];
}
