// Layer routes: the stack (GET /layers), adding, removing, moving and blending layers, the selected layer that
// /sources, /mix and /transport address, and the `/layers/{n}/…` routes, which are the existing route definitions run for layer n.
import Type from 'typebox';
import { defineRoute, API_PREFIX, POSITION_PATTERN, type RouteDef } from '../http/route.js';
import { ApiError } from '../errors.js';
import { LAYER_LIMITS, LIMITS } from '../limits.js';
import type { LayerParts, LayerStack } from '../layers/stack.js';
import type { SourceEntry } from '../sources/source-manager.js';
import { CurrentSourceSchema } from './sources.js';

export interface LayerRouteDeps {
  stack: LayerStack;
  max(): number;
  /** Installed blend modes (assets/blends and blends.dirs). */
  blends(): readonly string[];
  /** Resolves `add`'s source (id first, then name) among every source, or throws 404. */
  resolve(query: string): SourceEntry;
}

const Position = (description: string) => Type.Integer({ minimum: 1, maximum: LAYER_LIMITS.maxLayersCeiling, description });
const LayerField = { layer: Position('the layer: its 1-based position, 1 is the bottom (GET /layers)') };
const Opacity = Type.Number({ minimum: 0, maximum: 1, description: '0 (transparent: not drawn) to 1 (opaque)' });
const Blend = Type.String({ minLength: 1, maxLength: 64, description: 'blend mode (GET /layers lists `blends`)' });
const Name = Type.String({ minLength: 1, maxLength: LAYER_LIMITS.nameMax, pattern: '\\S', description: 'display name' });

export const LayerViewSchema = Type.Object({
  layer: Type.Integer({ minimum: 1, description: 'position, 1 is the bottom' }),
  name: Type.String(),
  source: CurrentSourceSchema,
  opacity: Type.Number({ minimum: 0, maximum: 1 }),
  blend: Type.String(),
  mute: Type.Boolean(),
  solo: Type.Boolean(),
  selected: Type.Boolean({ description: 'the layer the unprefixed routes (/sources, /mix, /transport) address' }),
  effects: Type.Integer({ minimum: 0, description: "entries of the layer's own chain (/layers/{n}/effects)" }),
});

const StackView = Type.Object({
  selected: Type.Integer({ minimum: 1, description: 'position of the selected layer' }),
  max: Type.Integer({ minimum: 1, description: 'config render.maxLayers' }),
  blends: Type.Array(Type.String(), { description: 'installed blend modes' }),
  layers: Type.Array(LayerViewSchema, { description: 'bottom to top' }),
});
const Changed = Type.Object({ success: Type.Literal(true), ...StackView.properties });

export function layerView(stack: LayerStack, l: LayerParts): Record<string, unknown> {
  return {
    layer: stack.positionOf(l),
    name: l.name,
    source: l.sources.currentSource(),
    opacity: l.opacity,
    blend: l.blend,
    mute: l.mute,
    solo: l.solo,
    selected: l === stack.selected(),
    effects: l.render.snapshot.items.length,
  };
}

export function layersRoutes(d: LayerRouteDeps): RouteDef[] {
  const { stack } = d;
  const view = () => ({
    selected: stack.positionOf(stack.selected()),
    max: d.max(),
    blends: [...d.blends()],
    layers: stack.layers().map((l) => layerView(stack, l)),
  });
  const changed = () => ({ json: { success: true, ...view() } });
  const blendOf = (mode: string): string => {
    const all = d.blends();
    const m = all.find((b) => b === mode) ?? all.find((b) => b.toLowerCase() === mode.trim().toLowerCase());
    if (!m) throw new ApiError('INVALID_REQUEST', `unknown blend mode "${mode.slice(0, 64)}"; installed: ${all.join(', ')}`);
    return m;
  };
  const post = (
    name: string,
    operationId: string,
    summary: string,
    body: Record<string, ReturnType<typeof Type.Integer> | typeof Opacity | typeof Blend | typeof Name | ReturnType<typeof Type.Boolean>>,
    run: (b: Record<string, unknown>) => void,
    errors: RouteDef['errors'] = ['INVALID_REQUEST', 'LAYER_NOT_FOUND'],
  ): RouteDef =>
    defineRoute({
      method: 'POST',
      path: `${API_PREFIX}/layers/${name}`,
      auth: 'required',
      operationId,
      summary,
      description: 'Answers with the whole stack after the change. A position outside the stack is 404 LAYER_NOT_FOUND.',
      tags: ['layers'],
      feature: 'layers',
      schema: { body: Type.Object(body) },
      responses: { 200: { description: 'the stack after the change', schema: Changed } },
      errors,
      handler: (req) => {
        run(req.body as Record<string, unknown>);
        return changed();
      },
    });
  return [
    defineRoute({
      method: 'GET',
      path: `${API_PREFIX}/layers`,
      auth: 'required',
      operationId: 'listLayers',
      summary: 'The layer stack, bottom to top, and the selected layer',
      tags: ['layers'],
      feature: 'layers',
      schema: {},
      responses: { 200: { description: 'the stack', schema: StackView } },
      errors: [],
      handler: () => ({ json: view() }),
    }),
    defineRoute({
      method: 'POST',
      path: `${API_PREFIX}/layers/add`,
      auth: 'required',
      operationId: 'addLayer',
      summary: 'Add a layer on top of the stack',
      description:
        `Optional \`source\` (id or name of any source, 1-${LIMITS.selectIdMaxLength} characters) is selected on the new layer; the answer then waits for its first frame as a select does (504 ACTIVATION_TIMEOUT: the layer stays, empty). ` +
        'Optional `blend` (default `normal`), `opacity` (default 1) and `name`. Past config render.maxLayers: 403 LAYER_LIMIT_REACHED.',
      tags: ['layers'],
      feature: 'layers',
      schema: {
        body: Type.Object({
          source: Type.Optional(Type.String({ minLength: 1, maxLength: LIMITS.selectIdMaxLength, pattern: '\\S' })),
          blend: Type.Optional(Blend),
          opacity: Type.Optional(Opacity),
          name: Type.Optional(Name),
        }),
      },
      emptyBody: true,
      responses: { 200: { description: 'the stack with the new layer on top', schema: Changed } },
      errors: ['INVALID_REQUEST', 'LAYER_LIMIT_REACHED', 'ITEM_NOT_FOUND', 'ACTIVATION_TIMEOUT', 'SOURCE_LOAD_FAILED'],
      handler: async (req) => {
        const b = req.body;
        const blend = b.blend !== undefined ? blendOf(b.blend) : 'normal';
        const entry = b.source !== undefined ? d.resolve(b.source) : null;
        const l = stack.add({
          blend,
          ...(b.opacity !== undefined ? { opacity: b.opacity } : {}),
          ...(b.name !== undefined ? { name: b.name } : {}),
        });
        if (entry) await l.sources.select(entry);
        return changed();
      },
    }),
    post('remove', 'removeLayer', 'Remove a layer (its source and chain go with it; the stack keeps at least one)', LayerField, (b) =>
      stack.remove(b.layer as number),
    ),
    post(
      'move',
      'moveLayer',
      'Move a layer to another position (the others shift)',
      { ...LayerField, to: Position('the new position') },
      (b) => stack.move(b.layer as number, b.to as number),
    ),
    post('opacity', 'setLayerOpacity', "Set a layer's opacity", { ...LayerField, value: Opacity }, (b) =>
      stack.set(b.layer as number, { opacity: b.value as number }),
    ),
    post('blend', 'setLayerBlend', "Set a layer's blend mode", { ...LayerField, mode: Blend }, (b) => {
      stack.at(b.layer as number);
      stack.set(b.layer as number, { blend: blendOf(b.mode as string) });
    }),
    post('mute', 'setLayerMute', 'Mute or unmute a layer (a muted layer is not drawn)', { ...LayerField, enabled: Type.Boolean() }, (b) =>
      stack.set(b.layer as number, { mute: b.enabled as boolean }),
    ),
    post(
      'solo',
      'setLayerSolo',
      'Solo a layer (while any layer is solo, only solo layers are drawn)',
      { ...LayerField, enabled: Type.Boolean() },
      (b) => stack.set(b.layer as number, { solo: b.enabled as boolean }),
    ),
    post('name', 'setLayerName', 'Rename a layer', { ...LayerField, name: Name }, (b) =>
      stack.set(b.layer as number, { name: b.name as string }),
    ),
    post('select', 'selectLayer', 'Select the layer the unprefixed routes (/sources, /mix, /transport) address', LayerField, (b) =>
      stack.select(b.layer as number),
    ),
  ];
}

/**
 * The given routes again under `/layers/{layer}/…`, each run for that layer (src/layers/selected.ts): one
 * definition, two addresses. `/api/v1/effects/add` becomes `/api/v1/layers/{layer}/effects/add`.
 */
export function perLayer(routes: readonly RouteDef[], stack: LayerStack): RouteDef[] {
  return routes.map((r) => {
    const rest = r.path.slice(API_PREFIX.length);
    const params = r.schema.params as { properties?: Record<string, unknown> } | undefined;
    return {
      ...r,
      path: `${API_PREFIX}/layers/:layer${rest}`,
      paramPatterns: { ...r.paramPatterns, layer: POSITION_PATTERN },
      operationId: `layer${r.operationId[0]!.toUpperCase()}${r.operationId.slice(1)}`,
      summary: `${r.summary} (of layer {layer})`,
      tags: ['layers'],
      feature: 'layers',
      errors: [...new Set([...r.errors, 'LAYER_NOT_FOUND' as const])],
      schema: {
        ...r.schema,
        params: Type.Object({
          ...(params?.properties as Record<string, ReturnType<typeof Type.String>>),
          layer: Type.String({ pattern: `^${POSITION_PATTERN}$`, description: 'layer position, 1 is the bottom' }),
        }),
      },
      handler: (req) => stack.withLayer(Number((req.params as { layer: string }).layer), () => r.handler(req)),
    } satisfies RouteDef;
  });
}
