// Boolean feedbacks, each read from the events topics it is subscribed to (see subscriptions.ts); the image
// feedbacks are in images.ts.
import { type CompanionFeedbackDefinitions, combineRgb } from '@companion-module/base';
import { pickList } from './actions.js';
import type { BeatClock } from './beat.js';
import type { Choices } from './choices.js';
import type { VjdState } from './state.js';
import type { TopicNeeds } from './subscriptions.js';

export const RED = combineRgb(200, 0, 0);
export const GREEN = combineRgb(0, 160, 0);
export const AMBER = combineRgb(230, 150, 0);
export const WHITE = combineRgb(255, 255, 255);
export const BLACK = combineRgb(0, 0, 0);

export interface FeedbackContext {
  state: VjdState;
  choices: Choices;
  needs: TopicNeeds;
  beat: BeatClock;
}

export function booleanFeedbacks(ctx: FeedbackContext): CompanionFeedbackDefinitions {
  const { state, choices: c, needs, beat } = ctx;
  const track = {
    subscribe: (fb: { id: string; feedbackId: string }) => needs.add(fb.id, fb.feedbackId),
    unsubscribe: (fb: { id: string }) => needs.remove(fb.id),
  };
  const layerOpt = { ...pickList('layer', 'Layer', c.layers), default: 1 };
  return {
    on_program: {
      type: 'boolean',
      name: 'Source is on program',
      defaultStyle: { bgcolor: RED, color: WHITE },
      options: [pickList('source', 'Source', c.sources)],
      callback: (fb) => state.programId() === String(fb.options.source),
      ...track,
    },
    on_preview: {
      type: 'boolean',
      name: 'Source is on preview (cued)',
      defaultStyle: { bgcolor: GREEN, color: WHITE },
      options: [pickList('source', 'Source', c.sources)],
      callback: (fb) => state.previewId() === String(fb.options.source),
      ...track,
    },
    effect_enabled: {
      type: 'boolean',
      name: 'Effect is enabled',
      defaultStyle: { bgcolor: GREEN, color: WHITE },
      options: [pickList('effect', 'Effect (name in the chain, or position)', c.chain)],
      callback: (fb) => state.effectEnabled(String(fb.options.effect)),
      ...track,
    },
    layer_muted: {
      type: 'boolean',
      name: 'Layer is muted',
      defaultStyle: { bgcolor: RED, color: WHITE },
      options: [layerOpt],
      callback: (fb) => state.layer(Number(fb.options.layer))?.mute === true,
      ...track,
    },
    layer_soloed: {
      type: 'boolean',
      name: 'Layer is soloed',
      defaultStyle: { bgcolor: AMBER, color: BLACK },
      options: [layerOpt],
      callback: (fb) => state.layer(Number(fb.options.layer))?.solo === true,
      ...track,
    },
    scene_active: {
      type: 'boolean',
      name: 'Scene is active (the stack is what it recalls)',
      defaultStyle: { bgcolor: RED, color: WHITE },
      options: [pickList('scene', 'Scene', c.scenes)],
      callback: (fb) => state.activeScene()?.id === String(fb.options.scene),
      ...track,
    },
    recording: {
      type: 'boolean',
      name: 'Recording is running',
      defaultStyle: { bgcolor: RED, color: WHITE },
      options: [{ ...pickList('output', 'Record output (empty: any)', [{ id: '', label: 'Any' }, ...c.outputs]), default: '' }],
      callback: (fb) => {
        const want = String(fb.options.output ?? '');
        return state.runningRecordings().some((o) => want === '' || o.name === want || o.id === want);
      },
      ...track,
    },
    blackout: {
      type: 'boolean',
      name: 'Blackout is on',
      defaultStyle: { bgcolor: RED, color: WHITE },
      options: [],
      callback: () => state.blackout(),
      ...track,
    },
    beat_flash: {
      type: 'boolean',
      name: 'Beat flash (timed locally from the tempo clock)',
      defaultStyle: { bgcolor: WHITE, color: BLACK },
      options: [
        {
          type: 'dropdown',
          id: 'unit',
          label: 'Flash on',
          default: 'beat',
          choices: [
            { id: 'beat', label: 'Every beat' },
            { id: 'bar', label: 'Beat 1 of each bar' },
          ],
        },
        { type: 'number', id: 'fraction', label: 'Length (part of the beat or bar)', default: 0.25, min: 0.05, max: 0.95, step: 0.05 },
      ],
      callback: (fb) => {
        const fraction = Number(fb.options.fraction) || 0.25;
        const unit = fb.options.unit === 'bar' ? 'bar' : 'beat';
        beat.addFlash(fraction, unit);
        return beat.flashOn(fraction, unit);
      },
      ...track,
    },
    clip_near_end: {
      type: 'boolean',
      name: 'Clip on program is near its end',
      defaultStyle: { bgcolor: AMBER, color: BLACK },
      options: [{ type: 'number', id: 'seconds', label: 'Seconds before the end', default: 10, min: 0, max: 3600 }],
      callback: (fb) => {
        const t = state.transport;
        return t !== null && t.state === 'playing' && typeof t.remainingS === 'number' && t.remainingS <= Number(fb.options.seconds);
      },
      ...track,
    },
  };
}
