// The page's default transition IS the mixer's (GET /mix `transition`, the `mix` topic): changing it sends
// POST /mix/transition, which takes nothing; takes and scene buttons without their own choice use it.
import { call, problem } from './api';
import { changed } from './live';
import { live, notify, update, useLive } from './store';

export interface Choice {
  type: string;
  durationMs: number;
}

export const DURATION_MAX_MS = 10_000;
const NONE: Choice = { type: 'cut', durationMs: 0 };

/** What this page's next take or scene recall uses: a pick still on its way, else the mixer's. */
export function currentTransition(): Choice {
  const s = live();
  return s.transitionPick ?? s.mix?.transition ?? NONE;
}

/** The same, re-rendered on every change. */
export function useTransition(): Choice {
  const pick = useLive((s) => s.transitionPick);
  const mix = useLive((s) => s.mix);
  return pick ?? mix?.transition ?? NONE;
}

let sent = 0;
let inFlight = false;
let queued: Choice | null = null;

/** Sets the mixer's transition; only the newest of several quick changes is sent after the one in flight. */
export function setTransition(change: Partial<Choice>): void {
  const next = { ...currentTransition(), ...change };
  update({ transitionPick: next });
  sent++;
  if (inFlight) queued = next;
  else void send(next, sent);
}

async function send(c: Choice, seq: number): Promise<void> {
  inFlight = true;
  const r = await call('POST', '/mix/transition', { body: { transition: c.type, durationMs: c.durationMs } });
  inFlight = false;
  changed();
  const q = queued;
  queued = null;
  if (q) return send(q, sent);
  // Only the answer to the newest pick clears it: an older answer would show a value about to be replaced. The `mix`
  // topic carries the value itself (an answer can be older than an event that came in while it was out).
  if (seq !== sent) return;
  update({ transitionPick: null });
  if (!r.ok) notify(problem(r));
}
