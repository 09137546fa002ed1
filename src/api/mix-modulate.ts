// POST /mix/modulate: the T-bar's modulator. The render worker moves the T-bar only while its mixer holds a transition
// program, which it loads on a take or a T-bar move; a mixer nobody moved since the worker started holds none, and a
// select with its own transition leaves that one. So setting a modulator where there was none, and cueing while one
// is set, first sends the T-bar at its position with the mixer's transition. Replacing a modulator does not: that
// restarts the cued source, and a desk turning a knob sends many.
import Type from 'typebox';
import { defineRoute, API_PREFIX, type RouteDef } from '../http/route.js';
import { ApiError } from '../errors.js';
import type { Mixer } from '../sources/mixer.js';
import type { Modulation } from '../modulation/service.js';
import { ModProblemSchema, ModulatedInput, ModulatorBody } from '../modulation/schemas.js';
import { modulatorOf, scalar } from './modulation.js';

/** Sends the resting T-bar with the mixer's transition; nothing while nothing is cued or a take or T-bar move runs. */
export async function armTbar(mixer: Pick<Mixer, 'view' | 'setPosition'>): Promise<void> {
  const v = mixer.view();
  if (v.preview === null || v.inTransition) return;
  try {
    await mixer.setPosition(v.position);
  } catch (err) {
    // The preview went in the meantime: there is nothing to move.
    if (!(err instanceof ApiError && err.code === 'NOTHING_CUED')) throw err;
  }
}

export function mixModulateRoute(mixer: Pick<Mixer, 'view' | 'setPosition'>, modulation: Modulation): RouteDef {
  return defineRoute({
    auth: 'required',
    feature: 'modulation',
    tags: ['mix'],
    method: 'POST',
    path: `${API_PREFIX}/mix/modulate`,
    operationId: 'modulateMix',
    summary: "Set or remove the modulator of the mixer's T-bar",
    description:
      "The T-bar moves around its held position (POST /mix/position) with the mixer's transition while a source is cued and no take runs; " +
      'a modulated position never completes a take. Setting a modulator where there was none while a source is cued starts the transition at the held ' +
      'position (a cued generator or clip starts over, as when the T-bar leaves the program end; so does a cue while a modulator is set); ' +
      '500 TRANSITION_LOAD_FAILED when it does not compile, nothing changed.',
    schema: { body: Type.Object({ modulator: ModulatorBody }) },
    responses: { 200: { description: 'the T-bar with its modulator', schema: ModulatedInput } },
    errors: ['INVALID_REQUEST', 'TRANSITION_LOAD_FAILED', 'CHAIN_BUSY'],
    errorDetails: { INVALID_REQUEST: ModProblemSchema },
    handler: async (req) => {
      if (!('modulator' in (req.body as object))) throw new ApiError('INVALID_REQUEST', 'send `modulator` (an object, or null to remove)');
      const modulator = modulatorOf(req.body.modulator);
      if (modulator !== null && modulation.view.mix === null) await armTbar(mixer);
      modulation.setMix(modulator);
      return { json: scalar('tbar', mixer.view().position, modulator, modulation.live?.mix) };
    },
  });
}
