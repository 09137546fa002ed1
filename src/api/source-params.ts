// Generator parameters of the program source: GET /sources/current/params and POST /sources/params, with the value
// rules of the effect parameters. 409 NOT_A_GENERATOR while the program is a live input, a media file or nothing.
import Type from 'typebox';
import { defineRoute, API_PREFIX, type RouteDef } from '../http/route.js';
import { ApiError } from '../errors.js';
import type { GeneratorParams } from '../sources/generator-params.js';
import type { Modulation } from '../modulation/service.js';
import { withModulation } from '../modulation/views.js';
import { InputStateSchema, ValueProblemSchema, VALUE_RULES } from './input-schemas.js';

export interface SourceParamsDeps {
  params: GeneratorParams;
  /** False while the render worker does not answer (CHAIN_BUSY, as for the effect parameters). */
  alive(): boolean;
  /** The generator's modulators and live values (absent: none shown). */
  modulation?: Modulation;
}

const View = Type.Object({
  id: Type.String({ description: 'id of the program source (`source:<type>` or `preset:<name>`)' }),
  inputs: Type.Array(InputStateSchema, { description: "its generator's ISF inputs with their current values" }),
});

const common = { auth: 'required' as const, tags: ['sources'], feature: 'generator-params' };

export function sourceParamsRoutes(d: SourceParamsDeps): RouteDef[] {
  const busy = (): void => {
    if (!d.alive()) throw new ApiError('CHAIN_BUSY', 'the renderer has not answered within 1000 ms; nothing changed; retry');
  };
  return [
    defineRoute({
      ...common,
      method: 'GET',
      path: `${API_PREFIX}/sources/current/params`,
      operationId: 'getSourceParams',
      summary: "Inputs of the program source's generator with their current values",
      description:
        "Values belong to the current activation: selecting another source (or this one again after another) starts from the source's own inputs " +
        "(a source preset's saved values, else the generator defaults).",
      schema: {},
      responses: { 200: { description: 'the generator inputs', schema: View } },
      errors: ['NOT_A_GENERATOR', 'CHAIN_BUSY'],
      handler: () => {
        busy();
        const view = d.params.get();
        const m = d.modulation;
        if (!m) return { json: view };
        const key = d.params.program().key;
        const live = m.live?.generator?.key === key ? m.live.generator.values : null;
        return { json: { ...view, inputs: withModulation(view.inputs, m.generatorMods(key), live) } };
      },
    }),
    defineRoute({
      ...common,
      method: 'POST',
      path: `${API_PREFIX}/sources/params`,
      operationId: 'setSourceParams',
      summary: "Set input values of the program source's generator (merge)",
      description: `${VALUE_RULES} A request with any invalid value applies none of its values. The answer shows every input as applied.`,
      schema: { body: Type.Object({ values: Type.Record(Type.String(), Type.Unknown(), { description: 'input name → value' }) }) },
      responses: {
        200: { description: 'the inputs after the change', schema: Type.Object({ success: Type.Literal(true), ...View.properties }) },
      },
      errors: ['INVALID_REQUEST', 'NOT_A_GENERATOR', 'CHAIN_BUSY'],
      errorDetails: { INVALID_REQUEST: ValueProblemSchema },
      handler: (req) => {
        busy();
        return { json: { success: true, ...d.params.set(req.body.values) } };
      },
    }),
  ];
}
