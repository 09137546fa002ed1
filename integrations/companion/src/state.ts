// What the module knows of vjd: each events topic's latest data (the topic carries the full state, never a diff),
// seeded over HTTP when a topic is first wanted, and the lookups the feedbacks and variables make on it.

/** The GET route each topic mirrors, to seed it when it joins the subscription. */
export const TOPIC_PATHS: Record<string, string> = {
  mix: '/api/v1/mix',
  chain: '/api/v1/effects',
  global: '/api/v1/global',
  outputs: '/api/v1/outputs',
  layers: '/api/v1/layers',
  scenes: '/api/v1/scenes',
  transport: '/api/v1/transport',
  tempo: '/api/v1/tempo',
  status: '/api/v1/status',
};

export class VjdState {
  readonly topics = new Map<string, any>();

  set(topic: string, data: any): void {
    this.topics.set(topic, data);
  }

  get mix(): any {
    return this.topics.get('mix') ?? null;
  }
  get transport(): any {
    return this.topics.get('transport')?.program ?? null;
  }
  get tempo(): any {
    return this.topics.get('tempo') ?? null;
  }

  programId(): string {
    return this.mix?.program?.id ?? '';
  }
  previewId(): string {
    return this.mix?.preview?.id ?? '';
  }

  effectEnabled(name: string): boolean {
    const key = norm(name);
    const items: any[] = this.topics.get('chain')?.items ?? [];
    const hit = items.find((e) => norm(e.name) === key || norm(e.type) === key || String(e.index) === name.trim());
    return hit?.enabled === true;
  }

  layer(n: number): any {
    return (this.topics.get('layers')?.layers ?? []).find((l: any) => l.layer === n) ?? null;
  }

  blackout(): boolean {
    return this.topics.get('global')?.blackout === true;
  }

  /** Record outputs that are writing a file now. */
  runningRecordings(): any[] {
    const items: any[] = this.topics.get('outputs')?.items ?? [];
    return items.filter((o) => o.kind === 'record' && o.state === 'running');
  }

  /**
   * The scene whose saved stack the live stack matches (sources, opacity, blend, mute, solo, effect counts): vjd
   * reports no "current scene", so a scene counts as active while the picture is still what it recalls.
   */
  activeScene(): { id: string; name: string } | null {
    const layers: any[] = this.topics.get('layers')?.layers ?? [];
    const scenes: any[] = this.topics.get('scenes')?.scenes ?? [];
    const masterEffects = this.topics.get('chain')?.count;
    for (const s of scenes) {
      if (!Array.isArray(s.layers) || s.layers.length !== layers.length) continue;
      if (masterEffects !== undefined && s.masterEffects !== masterEffects) continue;
      const same = s.layers.every((sl: any, i: number) => {
        const l = layers[i];
        return (
          l &&
          (sl.source?.id ?? '') === (l.source?.id ?? '') &&
          sl.opacity === l.opacity &&
          sl.blend === l.blend &&
          sl.mute === l.mute &&
          sl.solo === l.solo &&
          sl.effects === l.effects
        );
      });
      if (same) return { id: s.id, name: s.name };
    }
    return null;
  }
}

/** vjd's name rules: case-insensitive, space/underscore/hyphen equivalent, trimmed. */
export function norm(s: unknown): string {
  return String(s ?? '')
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ');
}

export function mmss(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '--:--';
  const s = Math.max(0, Math.floor(seconds));
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}
