// GET /catalog/errors: every ISF or preset file that did not load or compile, with its kind, message and line.
import Type from 'typebox';
import { defineRoute, API_PREFIX, type RouteDef } from '../http/route.js';
import type { LoadErrors } from '../catalog/load-errors.js';
import { ISF_CACHE_LIMITS } from '../limits.js';

const LoadErrorSchema = Type.Object({
  file: Type.String({ description: 'the file: its path, or `builtin:<name>` for a shipped one' }),
  kind: Type.String({ description: '`effect`, `generator`, `transition`, `blend` or `preset` (the folder it was found in)' }),
  type: Type.String({ description: 'the type its file name gives' }),
  stage: Type.String({
    description: '`parse`: skipped, not listed anywhere; `compile`: listed with `loadError`, and using it fails at once',
  }),
  message: Type.String({ description: 'why, with the line of the file where the message names one' }),
  line: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { description: 'the line in the file, when known' }),
});

export function catalogRoutes(errors: () => LoadErrors): RouteDef[] {
  return [
    defineRoute({
      method: 'GET',
      path: `${API_PREFIX}/catalog/errors`,
      auth: 'required',
      operationId: 'listCatalogErrors',
      summary: 'Catalog files that did not load or compile, and why',
      description:
        'Files of `effects.dirs`, `sources.dirs`, `transitions.dirs`, `blends.dirs` and `presets.dirs` (and built-ins) that did not parse, sit in the wrong folder, ' +
        "or do not compile. A file's entry goes when it is fixed on disk (the folders are watched; a compile result follows the rescan). " +
        `\`count\` is the whole number; \`items\` lists at most ${ISF_CACHE_LIMITS.catalogErrorsMax}.`,
      tags: ['catalog'],
      feature: 'effects-catalogue',
      schema: {},
      responses: {
        200: {
          description: 'the files that did not load',
          schema: Type.Object({ count: Type.Integer({ minimum: 0 }), items: Type.Array(LoadErrorSchema) }),
        },
      },
      errors: [],
      handler: () => ({ json: errors().list() }),
    }),
  ];
}
