// GET /catalog/effects/{id}/thumbnail: what an effect does, shown over a fixed test card; the effect picker's images.
import { API_PREFIX, type RouteDef } from '../http/route.js';
import type { ThumbnailService } from '../thumbnails/service.js';
import { IMAGE_CACHE_LIMITS } from '../limits.js';
import { imageRoute } from './thumbnails.js';

export function effectThumbnailRoutes(svc: Pick<ThumbnailService, 'effect'>): RouteDef[] {
  return [
    imageRoute({
      path: `${API_PREFIX}/catalog/effects/:id/thumbnail`,
      operationId: 'getEffectThumbnail',
      summary: 'Image of an effect at its default inputs over a fixed test card',
      description: [
        'The render worker draws a test card at render size (seven colour bars over the top two thirds: white, yellow, cyan, green, magenta, red, blue; a black-to-white ramp below; a white ring in the middle), runs the effect over it once at its default inputs at TIME = 2 s, and downscales the result. Kind `effect`; the digest follows the effect file (shader, inputs) and the render size, so the image is drawn once per effect and size and again only when the file changes.',
        '`id` is the effect type as GET /effects/available lists it, else matched by flexible name matching; unknown: 404 ITEM_NOT_FOUND with `details {requested, kind, available}`. An effect whose shader does not compile: 409 EFFECT_NOT_COMPILED with the compile message (GET /catalog/errors lists it too).',
        `Drawn once and kept, an effect's picture may take its shader's first compile: its render budget is ${IMAGE_CACHE_LIMITS.effectReadbackTimeoutMs} ms (not the 500 ms of live images), then 503 PREVIEW_TIMEOUT.`,
      ].join('\n\n'),
      feature: 'effect-thumbnails',
      id: 'effect type (or name), 1-256 characters (longer: 404 ITEM_NOT_FOUND)',
      notFound: 'ITEM_NOT_FOUND',
      errors: ['ITEM_NOT_FOUND', 'EFFECT_NOT_COMPILED'],
      serve: (id, size, format, inm) => svc.effect(id, size, format, inm),
    }),
  ];
}
