// Effects routes (docs/api.md): the catalog, the chain, and add/remove/toggle/enabled. Reads come from the render
// worker's newest snapshot; mutations go to the worker with a 1000 ms deadline (503 CHAIN_BUSY = nothing changed).
import Type, { type Static } from 'typebox';
import { defineRoute, API_PREFIX, POSITION_PATTERN, type RouteDef } from '../http/route.js';
import { ApiError } from '../errors.js';
import type { ChainSnapshot, RenderClient } from '../workers/render-client.js';
import type { ChainItem } from '../shared/protocol/render.js';
import type { CatalogSnapshot } from '../catalog/catalog.js';
import { describeInputs, inputStates } from '../shared/param-values.js';
import { nestedValueProblem } from '../params/nested-values.js';
import type { Modulation } from '../modulation/service.js';
import { chainLive, withModulation } from '../modulation/views.js';
import { chainWithInputs as readChainInputs } from '../effects/chain-inputs.js';
import { InputDescriptionSchema, InputStateSchema, ValueProblemSchema, VALUE_RULES } from './input-schemas.js';
import { LoadErrorField, withLoadError } from './load-error-field.js';

export interface EffectsDeps {
  /** The master chain's render client, or a layer's chain (src/workers/layer-render.ts). */
  render: Pick<RenderClient, 'chain' | 'chainReply' | 'readChain'>;
  catalog(): CatalogSnapshot;
  /** Effect ceiling of the active license tier. */
  ceiling(): number;
  /** The compile message of a type that does not load (GET /catalog/errors), else undefined. */
  loadError?(kind: 'effect', type: string): string | undefined;
  /** Live values of modulated inputs (absent: every `live` reads null). */
  modulation?: Modulation;
}

const NAME = { minLength: 1, maxLength: 256 };

export const ChainItemSchema = Type.Object({
  index: Type.Integer({ minimum: 1, description: '1-based chain position' }),
  name: Type.String({ description: 'display name' }),
  type: Type.String({ description: 'lower-case effect type' }),
  enabled: Type.Boolean({ description: 'visibility state' }),
  presetId: Type.String({ description: 'id of the effect preset this effect was loaded from; "" otherwise' }),
});

const CatalogItem = Type.Object({
  type: Type.String({ description: 'effect type that can be loaded' }),
  name: Type.String({ description: 'display name, also accepted where a name is matched' }),
  inChain: Type.Boolean({ description: 'true when the chain holds at least one effect of this type' }),
  inputs: Type.Array(InputDescriptionSchema, {
    description: "the effect's ISF inputs in file order (`inputImage` included, not settable)",
  }),
  replaces: Type.Optional(Type.String({ description: 'the built-in file (`builtin:<file>`) this operator file replaced' })),
  warnings: Type.Optional(
    Type.Array(Type.String(), { description: 'header problems vjd corrected when loading the file (e.g. MIN above MAX)' }),
  ),
  loadError: Type.Optional(LoadErrorField),
});

const ChainList = Type.Object({
  count: Type.Integer({ minimum: 0 }),
  enabledCount: Type.Integer({ minimum: 0 }),
  items: Type.Array(ChainItemSchema),
});

const Changed = Type.Object({ success: Type.Literal(true), current: ChainItemSchema });

/** A chain item with its inputs and their current values (GET /effects/{index}, params, reset). */
export const ChainItemWithInputs = Type.Object({ ...ChainItemSchema.properties, inputs: Type.Array(InputStateSchema) });
const ChangedWithInputs = Type.Object({ success: Type.Literal(true), current: ChainItemWithInputs });

// A position outside 1..count is an index miss (404 with `details.min`/`max`, docs/api.md), not a malformed
// request, so `index` has no minimum here.
const Index = Type.Integer({
  description: '1-based chain position; outside 1 to the chain length: 404 ITEM_NOT_FOUND with `details.min` and `details.max`',
});

/** How toggle and enabled address one chain item; the render worker's chain applies the `name`-wins rule. */
const Target = {
  index: Type.Optional(Index),
  name: Type.Optional(Type.String({ ...NAME, description: 'display name first, then type' })),
};

/** At least one of the two fields (both may be sent; the route's precedence rule picks one). */
const oneOf2 = (a: string, b: string) => Type.Union([Type.Object({ [a]: Type.Unknown() }), Type.Object({ [b]: Type.Unknown() })]);

/** `{}` (or neither field) names what to send instead of the bare schema message. */
const neither = (what: string) => (_where: string, problem: string) =>
  new ApiError('INVALID_REQUEST', problem.startsWith('body must have required') ? `send ${what}` : problem);

/** `details` of a miss on the chain: chain names or types (not capped), or the valid positions. */
export const ChainMiss = Type.Object(
  {
    requested: Type.Union([Type.String(), Type.Integer()], { description: 'the type, name or position sent' }),
    available: Type.Optional(
      Type.Array(Type.String(), { description: 'types (add: installed; remove: in the chain) or loaded effect names (toggle, enabled)' }),
    ),
    min: Type.Optional(Type.Integer({ description: 'lowest position: 1' })),
    max: Type.Optional(Type.Integer({ description: 'highest position: the chain length' })),
  },
  { additionalProperties: false },
);

const common = { auth: 'required' as const, tags: ['effects'] };

/** Every chain item with its inputs and their values (GET /effects/params, the OSCQuery description), as the schema types it. */
export const chainWithInputs = (d: Pick<EffectsDeps, 'render' | 'catalog' | 'modulation'>): Array<Static<typeof ChainItemWithInputs>> =>
  readChainInputs(d) as Array<Static<typeof ChainItemWithInputs>>;

/**
 * The JSON bytes of a view of the chain, made once per snapshot: the render client replaces the snapshot object on
 * every change, and GET /effects is what every panel polls.
 */
function perSnapshot(view: (items: readonly ChainItem[]) => unknown): (snap: ChainSnapshot) => Buffer {
  let last: ChainSnapshot | null = null;
  let bytes = Buffer.alloc(0);
  return (snap) => {
    if (snap !== last) {
      bytes = Buffer.from(JSON.stringify(view(snap.items)));
      last = snap;
    }
    return bytes;
  };
}

export function effectsRoutes(d: EffectsDeps): RouteDef[] {
  const chainBytes = perSnapshot((items) => ({ count: items.length, enabledCount: items.filter((i) => i.enabled).length, items }));
  const enabledBytes = perSnapshot((all) => {
    const items = all.filter((i) => i.enabled);
    return { count: items.length, items };
  });
  return [
    defineRoute({
      ...common,
      method: 'GET',
      path: `${API_PREFIX}/effects/available`,
      operationId: 'listAvailableEffects',
      summary: 'The effect catalog: one entry per installed effect type',
      description:
        'Built-in effects plus ISF files from `effects.dirs`. `inChainCount` counts catalog types with at least one copy in the chain.',
      feature: 'effects-catalogue',
      schema: {},
      responses: {
        200: {
          description: 'the catalog',
          schema: Type.Object({
            count: Type.Integer({ minimum: 0 }),
            inChainCount: Type.Integer({ minimum: 0 }),
            items: Type.Array(CatalogItem),
          }),
        },
      },
      errors: ['CHAIN_BUSY'],
      handler: () => {
        const inChain = new Set(d.render.readChain().items.map((i) => i.type));
        const items = d.catalog().effects.map((e) =>
          withLoadError(
            {
              type: e.type,
              name: e.name,
              inChain: inChain.has(e.type),
              inputs: describeInputs(e.inputs),
              ...(e.replaces ? { replaces: e.replaces } : {}),
              ...(e.warnings ? { warnings: e.warnings } : {}),
            },
            d.loadError?.('effect', e.type),
          ),
        );
        return { json: { count: items.length, inChainCount: items.filter((i) => i.inChain).length, items } };
      },
    }),
    defineRoute({
      ...common,
      method: 'GET',
      path: `${API_PREFIX}/effects`,
      operationId: 'listChain',
      summary: 'The effects chain in order',
      feature: 'effects',
      schema: {},
      responses: { 200: { description: 'the chain', schema: ChainList } },
      errors: ['CHAIN_BUSY'],
      handler: () => ({ jsonText: chainBytes(d.render.readChain()) }),
    }),
    defineRoute({
      ...common,
      method: 'GET',
      path: `${API_PREFIX}/effects/current`,
      operationId: 'listEnabledEffects',
      summary: 'Enabled effects only, each with its index in the full chain (indexes can have gaps)',
      feature: 'effects',
      schema: {},
      responses: {
        200: {
          description: 'enabled effects',
          schema: Type.Object({ count: Type.Integer({ minimum: 0 }), items: Type.Array(ChainItemSchema) }),
        },
      },
      errors: ['CHAIN_BUSY'],
      handler: () => ({ jsonText: enabledBytes(d.render.readChain()) }),
    }),
    defineRoute({
      ...common,
      method: 'POST',
      path: `${API_PREFIX}/effects/add`,
      operationId: 'addEffect',
      summary: 'Append an effect to the chain',
      description:
        '`type` is matched against the display name first, then the type (case-insensitive; space, underscore and hyphen equivalent; trimmed). ' +
        'The new effect is appended enabled. With `idempotent: true` and that type already in the chain, the first copy is returned and nothing is added. ' +
        '403 at the effect ceiling of the license tier (community 8, pro 32, studio 128); 404 lists installed types in `details.available`; ' +
        '500 EFFECT_LOAD_FAILED carries the shader compile error in `message`.',
      feature: 'effects',
      schema: {
        body: Type.Object({
          type: Type.String({ ...NAME, description: 'effect type or display name' }),
          idempotent: Type.Optional(Type.Boolean({ default: false, description: 'return the existing effect instead of adding a copy' })),
        }),
      },
      responses: {
        200: {
          description: 'the slot of the effect',
          schema: Type.Intersect([Type.Object({ success: Type.Literal(true) }), ChainItemSchema]),
        },
      },
      errors: ['INVALID_REQUEST', 'EFFECT_LIMIT_REACHED', 'ITEM_NOT_FOUND', 'EFFECT_LOAD_FAILED', 'CHAIN_BUSY'],
      errorDetails: { ITEM_NOT_FOUND: ChainMiss },
      handler: async (req) => {
        const started = Date.now();
        const item = await d.render.chain(
          { op: 'add', type: req.body.type, idempotent: req.body.idempotent ?? false, ceiling: d.ceiling(), presetId: '', inputs: {} },
          started,
        );
        return { json: { success: true, ...item } };
      },
    }),
    defineRoute({
      ...common,
      method: 'POST',
      path: `${API_PREFIX}/effects/remove`,
      operationId: 'removeEffect',
      summary: 'Remove an effect by type (the first of that type) or by index',
      description:
        'When both are sent, `type` wins. Later positions move down by one. A miss is 404 ITEM_NOT_FOUND with ' +
        '`details {requested, available}` (types in the chain) for a type, or `details {requested, min, max}` for an index.',
      feature: 'effects',
      schema: {
        body: Type.Intersect([
          Type.Object({
            type: Type.Optional(Type.String({ ...NAME, description: 'effect type (or display name); the first match is removed' })),
            index: Type.Optional(Index),
          }),
          oneOf2('type', 'index'),
        ]),
      },
      invalid: neither('`type` (string) or `index` (integer)'),
      responses: {
        200: { description: 'the removed item as it was', schema: Type.Object({ success: Type.Literal(true), removed: ChainItemSchema }) },
      },
      errors: ['INVALID_REQUEST', 'ITEM_NOT_FOUND', 'CHAIN_BUSY'],
      errorDetails: { ITEM_NOT_FOUND: ChainMiss },
      handler: async (req) => {
        const started = Date.now();
        const { type, index } = req.body;
        const removed = await d.render.chain({ op: 'remove', type, index }, started);
        return { json: { success: true, removed } };
      },
    }),
    defineRoute({
      ...common,
      method: 'POST',
      path: `${API_PREFIX}/effects/toggle`,
      operationId: 'toggleEffect',
      summary: 'Flip the enabled state of one effect',
      description:
        'When both are sent, `name` wins. A name miss gives `details.available` (loaded effect names); an index miss gives `details.min` and `details.max`.',
      feature: 'effects',
      schema: { body: Type.Intersect([Type.Object(Target), oneOf2('name', 'index')]) },
      invalid: neither('`name` (string) or `index` (integer)'),
      responses: { 200: { description: 'the item after the change', schema: Changed } },
      errors: ['INVALID_REQUEST', 'ITEM_NOT_FOUND', 'CHAIN_BUSY'],
      errorDetails: { ITEM_NOT_FOUND: ChainMiss },
      handler: async (req) => {
        const started = Date.now();
        const { index, name } = req.body;
        const current = await d.render.chain({ op: 'toggle', name, index }, started);
        return { json: { success: true, current } };
      },
    }),
    defineRoute({
      ...common,
      method: 'POST',
      path: `${API_PREFIX}/effects/enabled`,
      operationId: 'setEffectEnabled',
      summary: 'Show or hide one effect (idempotent)',
      description:
        'Precedence when both `index` and `name` are sent: `name` wins, as on toggle. Misses answer like toggle. Repeating a request changes nothing further.',
      feature: 'effects',
      schema: {
        body: Type.Intersect([Type.Object({ enabled: Type.Boolean({ description: 'state to set' }), ...Target }), oneOf2('name', 'index')]),
      },
      invalid: neither('`name` (string) or `index` (integer)'),
      responses: { 200: { description: 'the item after the change', schema: Changed } },
      errors: ['INVALID_REQUEST', 'ITEM_NOT_FOUND', 'CHAIN_BUSY'],
      errorDetails: { ITEM_NOT_FOUND: ChainMiss },
      handler: async (req) => {
        const started = Date.now();
        const { index, name, enabled } = req.body;
        const current = await d.render.chain({ op: 'enabled', enabled, name, index }, started);
        return { json: { success: true, current } };
      },
    }),
    defineRoute({
      ...common,
      method: 'GET',
      // Before `/effects/:index`: the first matching route wins.
      path: `${API_PREFIX}/effects/params`,
      operationId: 'listEffectParams',
      summary: 'Every chain item with its inputs and their current values',
      description:
        'The chain in order, each item as GET /effects/{index} answers it. Answered from the newest chain snapshot. ' +
        'The `params` event topic carries this JSON: GET /effects lists no input values, so this is where a value set over any transport shows.',
      feature: 'effect-params',
      schema: {},
      responses: {
        200: {
          description: 'the chain with inputs',
          schema: Type.Object({ count: Type.Integer({ minimum: 0 }), items: Type.Array(ChainItemWithInputs) }),
        },
      },
      errors: ['CHAIN_BUSY'],
      handler: () => {
        const items = chainWithInputs(d);
        return { json: { count: items.length, items } };
      },
    }),
    defineRoute({
      ...common,
      method: 'GET',
      path: `${API_PREFIX}/effects/:index`,
      paramPatterns: { index: POSITION_PATTERN },
      operationId: 'getEffect',
      summary: 'One chain item with its inputs and their current values',
      description:
        'Answered from the newest chain snapshot. Outside 1 to the chain length: 404 ITEM_NOT_FOUND with `details.min` and `details.max`, as on toggle. ' +
        'Each input carries its description (as in GET /effects/available) plus `value`.',
      feature: 'effect-params',
      schema: {
        params: Type.Object({
          index: Type.String({
            pattern: '^[0-9]{1,9}$',
            description: '1-based chain position (digits only: any other segment is no route, 404 NOT_FOUND)',
          }),
        }),
      },
      responses: { 200: { description: 'the item with its inputs', schema: ChainItemWithInputs } },
      errors: ['INVALID_REQUEST', 'ITEM_NOT_FOUND', 'CHAIN_BUSY'],
      errorDetails: { ITEM_NOT_FOUND: ChainMiss },
      handler: (req) => {
        const snap = d.render.readChain();
        const index = Number(req.params.index);
        const item = snap.items[index - 1];
        const entry = snap.entries[index - 1];
        if (!item || !entry || index < 1) {
          const max = snap.items.length;
          throw new ApiError(
            'ITEM_NOT_FOUND',
            max === 0 ? `nothing at position ${index}: the chain is empty` : `nothing at position ${index}: positions are 1 to ${max}`,
            {
              requested: index,
              min: 1,
              max,
            },
          );
        }
        const desc = d.catalog().effects.find((e) => e.type === item.type);
        const live = chainLive(d.modulation?.live ?? null, snap.version, index);
        return { json: { ...item, inputs: desc ? withModulation(inputStates(desc.inputs, entry.inputs), entry.modulators, live) : [] } };
      },
    }),
    defineRoute({
      ...common,
      method: 'POST',
      path: `${API_PREFIX}/effects/params`,
      operationId: 'setEffectParams',
      summary: 'Set input values of one effect (merge: inputs not named keep their value)',
      description:
        'Addresses the effect like toggle (`name` wins over `index`). ' +
        VALUE_RULES +
        ' The answer shows the values as applied (clamped). A request with any invalid value applies none of its values.',
      feature: 'effect-params',
      schema: {
        body: Type.Intersect([
          Type.Object({ ...Target, values: Type.Record(Type.String(), Type.Unknown(), { description: 'input name → value' }) }),
          oneOf2('name', 'index'),
        ]),
      },
      invalid: neither('`name` (string) or `index` (integer), and `values` (object)'),
      responses: { 200: { description: 'the item with all its inputs after the change', schema: ChangedWithInputs } },
      errors: ['INVALID_REQUEST', 'ITEM_NOT_FOUND', 'CHAIN_BUSY'],
      errorDetails: { ITEM_NOT_FOUND: ChainMiss, INVALID_REQUEST: ValueProblemSchema },
      handler: async (req) => {
        const started = Date.now();
        const { index, name, values } = req.body;
        const nested = nestedValueProblem(values);
        if (nested) throw new ApiError('INVALID_REQUEST', `${nested.message}; nothing changed`, nested.details);
        const r = await d.render.chainReply({ op: 'params', name, index, values }, started);
        return { json: { success: true, current: { ...r.item, inputs: r.inputs ?? [] } } };
      },
    }),
    defineRoute({
      ...common,
      method: 'POST',
      path: `${API_PREFIX}/effects/reset`,
      operationId: 'resetEffectParams',
      summary: 'Put inputs of one effect back to their defaults (all, or the named ones)',
      description:
        'Addresses the effect like toggle (`name` wins over `index`). An unknown name in `inputs` is 400 with `details.available`; nothing changed.',
      feature: 'effect-params',
      schema: {
        body: Type.Intersect([
          Type.Object({
            ...Target,
            inputs: Type.Optional(
              Type.Array(Type.String({ ...NAME }), { maxItems: 256, description: 'input names to reset; absent: all' }),
            ),
          }),
          oneOf2('name', 'index'),
        ]),
      },
      invalid: neither('`name` (string) or `index` (integer)'),
      responses: { 200: { description: 'the item with all its inputs after the reset', schema: ChangedWithInputs } },
      errors: ['INVALID_REQUEST', 'ITEM_NOT_FOUND', 'CHAIN_BUSY'],
      errorDetails: { ITEM_NOT_FOUND: ChainMiss, INVALID_REQUEST: ValueProblemSchema },
      handler: async (req) => {
        const started = Date.now();
        const { index, name, inputs } = req.body;
        const r = await d.render.chainReply({ op: 'reset', name, index, ...(inputs !== undefined ? { inputs } : {}) }, started);
        return { json: { success: true, current: { ...r.item, inputs: r.inputs ?? [] } } };
      },
    }),
    defineRoute({
      ...common,
      method: 'POST',
      path: `${API_PREFIX}/effects/move`,
      operationId: 'moveEffect',
      summary: 'Move one effect to another chain position',
      description:
        'Addresses the effect like toggle (`name` wins over `index`); `to` is its new 1-based position, the others keep their order around it. ' +
        'A `to` outside 1 to the chain length is 404 ITEM_NOT_FOUND with `details.min` and `details.max`; nothing moved. Indexes follow the new order.',
      feature: 'effect-params',
      schema: {
        body: Type.Intersect([
          Type.Object({ ...Target, to: Type.Integer({ description: 'new 1-based position' }) }),
          oneOf2('name', 'index'),
        ]),
      },
      invalid: neither('`name` (string) or `index` (integer), and `to` (integer)'),
      responses: {
        200: {
          description: 'the chain in its new order',
          schema: Type.Object({ success: Type.Literal(true), items: Type.Array(ChainItemSchema) }),
        },
      },
      errors: ['INVALID_REQUEST', 'ITEM_NOT_FOUND', 'CHAIN_BUSY'],
      errorDetails: { ITEM_NOT_FOUND: ChainMiss },
      handler: async (req) => {
        const started = Date.now();
        const { index, name, to } = req.body;
        const r = await d.render.chainReply({ op: 'move', name, index, to }, started);
        return { json: { success: true, items: r.items ?? [] } };
      },
    }),
  ];
}
