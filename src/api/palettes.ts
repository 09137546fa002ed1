// Palette routes: the library with its colors, the current palette, next (wrapping) and select by id or name.
import Type from 'typebox';
import { defineRoute, API_PREFIX, type RouteDef } from '../http/route.js';
import { ApiError } from '../errors.js';
import { paletteView, type PaletteSelection } from '../palettes/selection.js';
import type { Palette } from '../palettes/library.js';
import { idOrNameInvalid, usableIdOrName } from './sources.js';

export const PaletteSchema = Type.Object(
  {
    index: Type.Integer({ minimum: 0, description: '0-based position in GET /palettes' }),
    id: Type.String({ description: 'stable per file: the file name without extension, lower-case' }),
    name: Type.String(),
    colors: Type.Array(Type.String({ pattern: '^#[0-9A-F]{6}$' }), { description: '`#RRGGBB` (upper-case) in palette order; opaque' }),
  },
  { description: 'a palette' },
);

const Selected = Type.Object({ success: Type.Literal(true), current: PaletteSchema });

export function paletteRoutes(sel: PaletteSelection, list: () => readonly Palette[]): RouteDef[] {
  const common = { auth: 'required' as const, tags: ['palettes'], feature: 'palettes' };
  return [
    defineRoute({
      ...common,
      method: 'GET',
      path: `${API_PREFIX}/palettes`,
      operationId: 'listPalettes',
      summary: 'Every palette with its colors, in library order (built-ins, then palette folders)',
      schema: {},
      responses: {
        200: {
          description: '`currentId` is the current palette id, or null when none is selected; `current` marks it in the list',
          schema: Type.Object({
            count: Type.Integer({ minimum: 0 }),
            currentId: Type.Union([Type.String(), Type.Null()]),
            items: Type.Array(Type.Intersect([PaletteSchema, Type.Object({ current: Type.Boolean() })])),
          }),
        },
      },
      errors: [],
      handler: () => {
        const cur = sel.current();
        const items = list().map((p) => ({ ...paletteView(p), current: p.id === cur?.id }));
        return { json: { count: items.length, currentId: cur?.id ?? null, items } };
      },
    }),
    defineRoute({
      ...common,
      method: 'GET',
      path: `${API_PREFIX}/palettes/current`,
      operationId: 'getCurrentPalette',
      summary: 'The current palette',
      description:
        "404 NO_CURRENT_PALETTE when no palette is selected: the library is empty, or the current palette's file was removed (it becomes current again if the file comes back).",
      schema: {},
      responses: { 200: { description: 'the current palette', schema: PaletteSchema } },
      errors: ['NO_CURRENT_PALETTE'],
      handler: () => ({ json: paletteView(sel.requireCurrent()) }),
    }),
    defineRoute({
      ...common,
      method: 'POST',
      path: `${API_PREFIX}/palettes/next`,
      operationId: 'nextPalette',
      summary: 'Select the next palette (wraps from the last to the first)',
      description:
        'Empty body (any JSON body is ignored). With no current palette the first one is selected. 404 NO_CURRENT_PALETTE when the library is empty. The new palette reaches every shader from the next frame.',
      schema: {},
      emptyBody: true,
      responses: { 200: { description: 'the palette now current', schema: Selected } },
      errors: ['NO_CURRENT_PALETTE'],
      handler: () => ({ json: { success: true, current: paletteView(sel.next()) } }),
    }),
    defineRoute({
      ...common,
      method: 'POST',
      path: `${API_PREFIX}/palettes/select`,
      operationId: 'selectPalette',
      summary: 'Select a palette by id or name',
      description:
        '`id` is matched exactly first, then like a name; `name` uses flexible matching (case-insensitive; space, underscore and hyphen equivalent; trimmed). One of them is required, each 1-512 characters. 404 ITEM_NOT_FOUND has `details {requested, kind, available}` (at most 50 ids).',
      schema: {
        body: Type.Intersect([
          Type.Object({
            id: Type.Optional(Type.String({ minLength: 1, maxLength: 512, description: 'palette id' })),
            name: Type.Optional(Type.String({ minLength: 1, maxLength: 512, description: 'palette name, flexible matching' })),
          }),
          usableIdOrName,
        ]),
      },
      invalid: idOrNameInvalid,
      responses: { 200: { description: 'the palette now current', schema: Selected } },
      errors: ['INVALID_REQUEST', 'ITEM_NOT_FOUND'],
      handler: (req) => {
        const id = req.body.id?.trim() ? req.body.id : undefined;
        const name = req.body.name?.trim() ? req.body.name : undefined;
        if (id === undefined && name === undefined)
          throw new ApiError('INVALID_REQUEST', 'send a non-empty `id` or `name` string of 1 to 512 characters');
        return { json: { success: true, current: paletteView(sel.select(sel.resolve({ id, name }))) } };
      },
    }),
  ];
}
