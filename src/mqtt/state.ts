// This box's state as the show sees it (docs/show.md, State): who it is and what it plays, published retained so a
// box that joins later reads everyone at once. Values are rounded so a steady show does not republish every second.
import type { ShowConfig } from '../config/show.js';

/** What the link reads of the running show, synchronously (src/app/transport-lookups.ts hands it over). */
export interface ShowLookup {
  /** Frames rendered in the last second. */
  fps(): number;
  /** The scene last recalled, if any. */
  scene(): { id: string; name: string } | null;
  /** The program's source. */
  source(): { kind: string; id: string; name: string } | null;
  tempo(): { bpm: number; source: string; beatsPerBar: number };
}

export interface BoxState {
  box: string;
  groups: string[];
  online: true;
  leader: boolean;
  version: string;
  fps: number;
  scene: { id: string; name: string } | null;
  source: { kind: string; id: string; name: string } | null;
  tempo: { bpm: number; source: string; beatsPerBar: number };
}

export function boxState(cfg: ShowConfig, version: string, show: ShowLookup): BoxState {
  const t = show.tempo();
  return {
    box: cfg.box,
    groups: [...cfg.groups],
    online: true,
    leader: cfg.leader,
    version,
    fps: Math.round(show.fps()),
    scene: show.scene(),
    source: show.source(),
    tempo: { bpm: Math.round(t.bpm * 100) / 100, source: t.source, beatsPerBar: t.beatsPerBar },
  };
}

/** What the last will and a clean stop leave on the box's state topic. */
export const offlineState = (box: string): string => JSON.stringify({ box, online: false });
