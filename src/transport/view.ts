// What GET /transport shows of one bus's clip: the reader's last report merged with the saved settings.
import type { ClipState, ClipStatus } from '../shared/protocol/ingest.js';
import { type ChaseSaved, effectiveSpeed, type TransportSaved } from './settings.js';

export type Bus = 'program' | 'preview';

export interface TransportView {
  bus: Bus;
  id: string;
  name: string;
  /** `opening` until the clip's reader reports. */
  state: ClipState | 'opening';
  positionS: number;
  durationS: number | null;
  /** Seconds to the out point at the current speed (null: unknown length). */
  remainingS: number | null;
  speed: number;
  sync: { beats: number } | null;
  loop: TransportSaved['loop'];
  end: TransportSaved['end'];
  in: number | null;
  out: number | null;
  cues: Array<{ name: string; positionS: number }>;
  /** The timecode it follows, or null. */
  chase: ChaseSaved | null;
}

const ms = (s: number): number => Math.round(s * 1000) / 1000;

export function viewOf(
  t: { bus: Bus; id: string; name: string; durationS: number | null },
  s: TransportSaved,
  status: ClipStatus | undefined,
  bpm: number,
): TransportView {
  const speed = status?.settings.speed ?? effectiveSpeed(s, t.durationS, bpm);
  const positionS = status?.positionS ?? s.in ?? 0;
  const end = s.out ?? t.durationS;
  return {
    bus: t.bus,
    id: t.id,
    name: t.name,
    state: status?.state ?? 'opening',
    positionS: ms(positionS),
    durationS: t.durationS,
    remainingS: end === null ? null : ms(Math.max(0, end - positionS) / speed),
    speed: ms(speed),
    sync: s.sync,
    loop: s.loop,
    end: s.end,
    in: s.in,
    out: s.out,
    cues: Object.entries(s.cues)
      .map(([name, positionS]) => ({ name, positionS }))
      .sort((a, b) => a.positionS - b.positionS),
    chase: s.chase ?? null,
  };
}
