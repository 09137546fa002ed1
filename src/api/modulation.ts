// Modulation routes: a modulator on one input of a chain effect, of the program generator or on the dimmer (null
// removes it), freeze, and GET /modulation; the T-bar's is with the mixer routes (src/api/mix-modulate.ts).
// The main thread checks and stores; the render worker evaluates.
import Type from 'typebox';
import { defineRoute, API_PREFIX, type RouteDef } from '../http/route.js';
import { ApiError } from '../errors.js';
import type { RenderClient } from '../workers/render-client.js';
import type { GeneratorParams } from '../sources/generator-params.js';
import type { Modulation } from '../modulation/service.js';
import { checkModulator, modKey, targetProblem, componentsOf, type Modulator } from '../shared/modulation.js';
import { currentValue } from '../shared/param-values.js';
import { chainLive } from '../modulation/views.js';
import { ChainMiss } from './effects.js';
import { Component, ModProblemSchema, ModulatedInput, ModulatorBody } from '../modulation/schemas.js';
import type { StateStore } from '../state/store.js';

export interface ModulationRouteDeps {
  render: RenderClient;
  modulation: Modulation;
  params: GeneratorParams;
  state: StateStore;
}

const NAME = { minLength: 1, maxLength: 256 };
const Input = Type.String({ ...NAME, description: 'the input name' });
const common = { auth: 'required' as const, feature: 'modulation' };

/** The checked modulator of a request body, or 400 naming the field and the rule. */
export function modulatorOf(raw: unknown): Modulator | null {
  if (raw === null) return null;
  const c = checkModulator(raw);
  if (!c.ok)
    throw new ApiError('INVALID_REQUEST', `${c.problem.field}: ${c.problem.rule}; nothing changed`, {
      field: c.problem.field,
      rule: c.problem.rule,
    });
  return c.modulator;
}

/** The answer of a modulate route for a scalar input (the T-bar, the dimmer, one component). */
export const scalar = (input: string, value: number | boolean | number[], modulator: Modulator | null, live: unknown) => ({
  input,
  value,
  modulator,
  live: modulator && (typeof live === 'number' || typeof live === 'boolean') ? live : null,
});

export function modulationRoutes(d: ModulationRouteDeps): RouteDef[] {
  return [
    defineRoute({
      ...common,
      tags: ['effects'],
      method: 'POST',
      path: `${API_PREFIX}/effects/modulate`,
      operationId: 'modulateEffect',
      summary: 'Set or remove the modulator of one input of a chain effect',
      description:
        'Addresses the effect like toggle (`name` wins over `index`). `component`: x or y of a point2D, hue, saturation or brightness of a color; ' +
        'absent for float, long and bool inputs. Image, event and audio inputs cannot be modulated (400 naming the input). The modulator moves with ' +
        'the effect (move), leaves with it (remove), persists with the chain and is saved in looks.',
      schema: {
        body: Type.Object({
          index: Type.Optional(Type.Integer({ description: '1-based chain position' })),
          name: Type.Optional(Type.String({ ...NAME, description: 'display name first, then type' })),
          input: Input,
          component: Type.Optional(Component),
          modulator: ModulatorBody,
        }),
      },
      responses: { 200: { description: "the input's new view", schema: ModulatedInput } },
      errors: ['INVALID_REQUEST', 'ITEM_NOT_FOUND', 'CHAIN_BUSY'],
      errorDetails: { INVALID_REQUEST: ModProblemSchema, ITEM_NOT_FOUND: ChainMiss },
      handler: async (req) => {
        const started = Date.now();
        const { index, name, input, component } = req.body;
        if (index === undefined && name === undefined) throw new ApiError('INVALID_REQUEST', 'send `name` (string) or `index` (integer)');
        if (!('modulator' in (req.body as object)))
          throw new ApiError('INVALID_REQUEST', 'send `modulator` (an object, or null to remove)');
        const modulator = modulatorOf(req.body.modulator);
        const r = await d.render.chainReply(
          { op: 'modulate', name, index, input, ...(component !== undefined ? { component } : {}), modulator },
          started,
        );
        const key = modKey(input, component);
        const state = r.inputs?.find((i) => i.name === input);
        const live = chainLive(d.modulation.live, d.render.snapshot.version, r.item.index)?.[key];
        return {
          json: {
            ...scalar(input, state?.value ?? 0, r.modulators?.[key] ?? null, live),
            ...(component !== undefined ? { component } : {}),
          },
        };
      },
    }),
    defineRoute({
      ...common,
      tags: ['sources'],
      method: 'POST',
      path: `${API_PREFIX}/sources/modulate`,
      operationId: 'modulateSource',
      summary: "Set or remove the modulator of one input of the program source's generator",
      description:
        'As for effects. The modulators belong to the program source: selecting another source drops them (as its values); they persist across a restart.',
      schema: { body: Type.Object({ input: Input, component: Type.Optional(Component), modulator: ModulatorBody }) },
      responses: { 200: { description: "the input's new view", schema: ModulatedInput } },
      errors: ['INVALID_REQUEST', 'NOT_A_GENERATOR', 'CHAIN_BUSY'],
      errorDetails: { INVALID_REQUEST: ModProblemSchema },
      handler: (req) => {
        if (!d.render.alive()) throw new ApiError('CHAIN_BUSY', 'the renderer has not answered within 1000 ms; nothing changed; retry');
        const { input, component } = req.body;
        if (!('modulator' in (req.body as object)))
          throw new ApiError('INVALID_REQUEST', 'send `modulator` (an object, or null to remove)');
        const modulator = modulatorOf(req.body.modulator);
        const p = d.params.program();
        const i = p.desc.inputs.find((x) => x.name === input);
        const problem = i ? targetProblem(i.name, i.type, component) : `no input is named "${input.slice(0, 80)}"`;
        if (problem)
          throw new ApiError('INVALID_REQUEST', `${p.entry.name}: ${problem}; nothing changed`, {
            input: input.slice(0, 80),
            available: p.desc.inputs.filter((x) => componentsOf(x.type) !== null).map((x) => x.name),
          });
        const key = modKey(input, component);
        d.modulation.setGenerator(p.key, key, modulator);
        const live = d.modulation.live?.generator?.key === p.key ? d.modulation.live.generator.values[key] : undefined;
        const value = currentValue(i!, p.values[input]) ?? 0;
        return { json: { ...scalar(input, value, modulator, live), ...(component !== undefined ? { component } : {}) } };
      },
    }),
    defineRoute({
      ...common,
      tags: ['global'],
      method: 'POST',
      path: `${API_PREFIX}/global/modulate`,
      operationId: 'modulateGlobal',
      summary: 'Set or remove the modulator of the dimmer',
      description: '`input` must be `dimmer`. The output level moves around the dimmer value set by POST /global/dimmer.',
      schema: { body: Type.Object({ input: Type.Literal('dimmer', { description: 'dimmer' }), modulator: ModulatorBody }) },
      responses: { 200: { description: 'the dimmer with its modulator', schema: ModulatedInput } },
      errors: ['INVALID_REQUEST'],
      errorDetails: { INVALID_REQUEST: ModProblemSchema },
      handler: (req) => {
        if (!('modulator' in (req.body as object)))
          throw new ApiError('INVALID_REQUEST', 'send `modulator` (an object, or null to remove)');
        const modulator = modulatorOf(req.body.modulator);
        d.modulation.setDimmer(modulator);
        return { json: scalar('dimmer', d.state.peek().dimmer, modulator, d.modulation.live?.dimmer) };
      },
    }),
    defineRoute({
      ...common,
      tags: ['modulation'],
      method: 'POST',
      path: `${API_PREFIX}/modulation/freeze`,
      operationId: 'freezeModulation',
      summary: 'Hold every modulated input at its current applied value, or release',
      description:
        'A panic button: while frozen every modulator repeats the value of its last frame. Released, tempo-synced ones continue in phase with the clock and free-running ones where they stopped.',
      schema: { body: Type.Object({ enabled: Type.Boolean({ description: 'true: hold' }) }) },
      responses: { 200: { description: 'the freeze state', schema: Type.Object({ frozen: Type.Boolean() }) } },
      errors: ['INVALID_REQUEST'],
      handler: (req) => {
        d.modulation.freeze(req.body.enabled);
        return { json: { frozen: d.modulation.view.frozen } };
      },
    }),
    defineRoute({
      ...common,
      tags: ['modulation'],
      method: 'GET',
      path: `${API_PREFIX}/modulation`,
      operationId: 'getModulation',
      summary: 'Freeze state and the number of modulators',
      schema: {},
      responses: {
        200: {
          description: 'modulation overview',
          schema: Type.Object({
            frozen: Type.Boolean(),
            count: Type.Integer({ minimum: 0, description: 'modulators of the chain, the program generator, the T-bar and the dimmer' }),
          }),
        },
      },
      errors: [],
      handler: () => ({ json: { frozen: d.modulation.view.frozen, count: d.modulation.count() } }),
    }),
  ];
}
