// Global output controls: blackout and dimmer, persisted in state.json and applied by the render worker's output stage.
import Type from 'typebox';
import { defineRoute, API_PREFIX, type RouteDef } from '../http/route.js';
import type { StateStore } from '../state/store.js';
import type { Modulation } from '../modulation/service.js';
import { modulationFields } from '../modulation/schemas.js';

export const GlobalBody = Type.Object({
  blackout: Type.Boolean({ description: 'true: the output is black' }),
  dimmer: Type.Number({ minimum: 0, maximum: 1, description: 'output level multiplier, 0 (black) to 1 (full)' }),
});

const GlobalView = Type.Object({ ...GlobalBody.properties, ...modulationFields });

const GlobalChange = Type.Object({
  success: Type.Literal(true),
  blackout: Type.Boolean(),
  dimmer: Type.Number({ minimum: 0, maximum: 1 }),
});

/** `apply` hands the new values to the render worker's output stage. */
/** `modulation`: the dimmer's modulator and live level, shown by GET /global while the dimmer is modulated. */
export function globalRoutes(state: StateStore, apply: (blackout: boolean, dimmer: number) => void, modulation?: Modulation): RouteDef[] {
  const current = (): { blackout: boolean; dimmer: number } => {
    const s = state.peek();
    return { blackout: s.blackout, dimmer: s.dimmer };
  };
  return [
    defineRoute({
      method: 'GET',
      path: `${API_PREFIX}/global`,
      auth: 'required',
      operationId: 'getGlobal',
      summary: 'Blackout and dimmer state',
      tags: ['global'],
      feature: 'global',
      schema: {},
      responses: { 200: { description: 'current global output controls', schema: GlobalView } },
      errors: [],
      handler: () => {
        // The documented shape `{blackout, dimmer}` (docs/api.md) stays as it was; a modulated dimmer adds its modulator and live level.
        const modulator = modulation?.view.dimmer ?? null;
        if (!modulation || !modulator) return { json: current() };
        return { json: { ...current(), modulator, live: modulation.live?.dimmer ?? null } };
      },
    }),
    defineRoute({
      method: 'POST',
      path: `${API_PREFIX}/global/blackout`,
      auth: 'required',
      operationId: 'setBlackout',
      summary: 'Turn blackout on or off',
      description: 'Idempotent. `enabled` must be a boolean; anything else is 400 INVALID_REQUEST naming the field.',
      tags: ['global'],
      feature: 'global',
      schema: { body: Type.Object({ enabled: Type.Boolean({ description: 'true: output black' }) }) },
      responses: { 200: { description: 'the global state after the change', schema: GlobalChange } },
      errors: ['INVALID_REQUEST'],
      handler: (req) => {
        state.update((s) => {
          s.blackout = req.body.enabled;
        });
        apply(state.peek().blackout, state.peek().dimmer);
        return { json: { success: true, ...current() } };
      },
    }),
    defineRoute({
      method: 'POST',
      path: `${API_PREFIX}/global/dimmer`,
      auth: 'required',
      operationId: 'setDimmer',
      summary: 'Set the output dimmer',
      description:
        '`value` is a number from 0 (black) to 1 (full level); out of range or not a number is 400 INVALID_REQUEST naming the field.',
      tags: ['global'],
      feature: 'global',
      schema: { body: Type.Object({ value: Type.Number({ minimum: 0, maximum: 1, description: 'output level 0..1' }) }) },
      responses: { 200: { description: 'the global state after the change', schema: GlobalChange } },
      errors: ['INVALID_REQUEST'],
      handler: (req) => {
        state.update((s) => {
          s.dimmer = req.body.value;
        });
        apply(state.peek().blackout, state.peek().dimmer);
        return { json: { success: true, ...current() } };
      },
    }),
  ];
}
