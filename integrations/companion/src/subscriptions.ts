// Which events topics the module needs: those of the feedbacks placed on buttons (counted as Companion subscribes
// and unsubscribes them) plus those of the variable groups switched on in the config. Nothing else is asked for.
import { VARIABLE_GROUPS } from './config.js';

/** Feedback id → the topics it reads. */
export const FEEDBACK_TOPICS: Record<string, string[]> = {
  on_program: ['mix'],
  on_preview: ['mix'],
  effect_enabled: ['chain'],
  layer_muted: ['layers'],
  layer_soloed: ['layers'],
  scene_active: ['scenes', 'layers', 'chain'],
  recording: ['outputs'],
  blackout: ['global'],
  beat_flash: ['tempo'],
  clip_near_end: ['transport'],
  source_image: ['thumbnail'],
  scene_image: ['thumbnail', 'scenes'],
  program_image: ['thumbnail'],
};

export class TopicNeeds {
  private readonly placed = new Map<string, string>();

  constructor(private readonly changed: () => void) {}

  add(instanceId: string, feedbackId: string): void {
    this.placed.set(instanceId, feedbackId);
    this.changed();
  }

  remove(instanceId: string): void {
    if (this.placed.delete(instanceId)) this.changed();
  }

  /** Feedback ids with at least one instance placed. */
  inUse(feedbackId: string): boolean {
    for (const f of this.placed.values()) if (f === feedbackId) return true;
    return false;
  }

  topics(variableGroups: string[]): string[] {
    const out = new Set<string>();
    for (const f of this.placed.values()) for (const t of FEEDBACK_TOPICS[f] ?? []) out.add(t);
    for (const g of variableGroups) for (const t of VARIABLE_GROUPS[g]?.topics ?? []) out.add(t);
    return [...out].sort();
  }
}
