// Hands Companion the action, feedback, variable and preset definitions, built from the current dropdown lists.
// Called at init and whenever the lists read from vjd change.
import type { InstanceBase } from '@companion-module/base';
import { programActions } from './actions.js';
import { fxActions } from './actions-fx.js';
import type { BeatClock } from './beat.js';
import type { Choices } from './choices.js';
import { booleanFeedbacks } from './feedbacks.js';
import type { VjdHttp } from './http.js';
import { type ImageCache, imageFeedbacks } from './images.js';
import { presets } from './presets.js';
import type { VjdState } from './state.js';
import type { TopicNeeds } from './subscriptions.js';
import { variableDefinitions } from './variables.js';

export interface DefinitionSources {
  /** The current client; actions read it at each press, since a config change replaces it. */
  http(): VjdHttp | null;
  choices: Choices;
  state: VjdState;
  needs: TopicNeeds;
  beat: BeatClock;
  images: ImageCache;
  maxLayers: number;
}

export function defineAll(inst: InstanceBase<any, any>, d: DefinitionSources): void {
  const ctx = {
    get http(): VjdHttp {
      const h = d.http();
      if (!h) throw new Error('not connected to vjd');
      return h;
    },
    choices: d.choices,
    state: d.state,
  };
  inst.setActionDefinitions({ ...programActions(ctx), ...fxActions(ctx) });
  inst.setFeedbackDefinitions({
    ...booleanFeedbacks({ state: d.state, choices: d.choices, needs: d.needs, beat: d.beat }),
    ...imageFeedbacks(d.choices, d.images, d.needs),
  });
  inst.setVariableDefinitions(variableDefinitions(d.maxLayers));
  inst.setPresetDefinitions(presets(d.choices, inst.label));
}
