// Ready-made buttons, built from the lists read after connecting: a source bank with thumbnails, a scene bank,
// tap tempo with the beat flash, transport with the remaining time, blackout and the chain's toggles.
import type {
  CompanionButtonPresetDefinition,
  CompanionButtonStyleProps,
  CompanionOptionValues,
  CompanionPresetDefinitions,
  CompanionPresetFeedback,
} from '@companion-module/base';
import type { Choices } from './choices.js';
import { BLACK, RED, WHITE } from './feedbacks.js';

const style = (text: string, size: CompanionButtonStyleProps['size'] = '14'): CompanionButtonStyleProps => ({
  text,
  size,
  color: WHITE,
  bgcolor: BLACK,
});

function button(
  category: string,
  name: string,
  text: string,
  actionId: string,
  options: CompanionOptionValues,
  feedbacks: CompanionPresetFeedback[] = [],
): CompanionButtonPresetDefinition {
  return {
    type: 'button',
    category,
    name,
    style: style(text),
    feedbacks,
    steps: [{ down: [{ actionId, options }], up: [] }],
  };
}

export function presets(c: Choices, instanceLabel = 'vjd'): CompanionPresetDefinitions {
  const p: CompanionPresetDefinitions = {};
  for (const s of c.sources) {
    const name = String(s.label).replace(/ \([a-z]+\)$/, '');
    p[`source_${s.id}`] = {
      ...button('Sources', name, name, 'source_select', { source: s.id, transition: '', durationMs: 0 }, [
        { feedbackId: 'source_image', options: { source: s.id } },
        { feedbackId: 'on_program', options: { source: s.id }, style: { bgcolor: RED } },
      ]),
      style: { ...style(name, '7'), alignment: 'center:bottom' },
    };
  }
  for (const s of c.scenes) {
    p[`scene_${s.id}`] = {
      ...button('Scenes', s.label, s.label, 'scene_recall', { scene: s.id, transition: '', durationMs: 0 }, [
        { feedbackId: 'scene_image', options: { scene: s.id } },
        { feedbackId: 'scene_active', options: { scene: s.id }, style: { bgcolor: RED } },
      ]),
      style: { ...style(s.label, '7'), alignment: 'center:bottom' },
    };
  }
  p.tap = button('Tempo', 'Tap tempo with beat flash', `TAP\\n$(${instanceLabel}:bpm)`, 'tempo', { op: 'tap' }, [
    { feedbackId: 'beat_flash', options: { unit: 'beat', fraction: 0.25 }, style: { bgcolor: WHITE, color: BLACK } },
  ]);
  p.resync = button('Tempo', 'Resync', 'BEAT 1', 'tempo', { op: 'resync' });
  p.half = button('Tempo', 'Tempo ×½', '×½', 'tempo', { op: 'half' });
  p.double = button('Tempo', 'Tempo ×2', '×2', 'tempo', { op: 'double' });
  p.play_pause = button(
    'Transport',
    'Play / pause with remaining time',
    `⏯\\n-$(${instanceLabel}:clip_remaining)`,
    'transport',
    { op: 'toggle' },
    [{ feedbackId: 'clip_near_end', options: { seconds: 10 }, style: { bgcolor: RED } }],
  );
  p.restart = button('Transport', 'Restart the clip', '⏮', 'transport', { op: 'restart' });
  p.blackout = button('Global', 'Blackout', 'BLACK\\nOUT', 'blackout', { mode: 'toggle' }, [
    { feedbackId: 'blackout', options: {}, style: { bgcolor: RED } },
  ]);
  p.take = button('Mixer', 'Take', 'TAKE', 'mix_take', { transition: '', durationMs: 0 });
  for (const e of c.chain) {
    p[`fx_${e.id}`] = button('Effects', `Toggle ${e.id}`, String(e.id), 'effect_toggle', { effect: e.id }, [
      { feedbackId: 'effect_enabled', options: { effect: e.id }, style: { bgcolor: RED } },
    ]);
  }
  return p;
}
