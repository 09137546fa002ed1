// Each scene button's own transition and duration, kept in this browser's localStorage (scenes on the server carry
// none): a button with one recalls with it, the others with the default (transition.ts).
import { useEffect, useState } from 'preact/hooks';
import type { Choice } from './transition';

const SLOT = 'vjd.sceneTransitions';
/** More than any scene list holds: a store filled by deleted scenes' leftovers stops growing. */
const MAX_ENTRIES = 256;
const listeners = new Set<() => void>();

function read(): Record<string, Choice> {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(SLOT) ?? '{}');
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, Choice>) : {};
  } catch {
    return {};
  }
}

const valid = (c: unknown): c is Choice =>
  typeof c === 'object' &&
  c !== null &&
  typeof (c as Choice).type === 'string' &&
  (c as Choice).type !== '' &&
  Number.isInteger((c as Choice).durationMs);

/** The scene's own choice, or null when it uses the default. */
export function sceneTransition(id: string): Choice | null {
  const c = read()[id];
  return valid(c) ? c : null;
}

/** Sets (or with null clears) the scene's own choice. */
export function setSceneTransition(id: string, c: Choice | null): void {
  const all = read();
  if (c === null) delete all[id];
  else {
    if (!(id in all) && Object.keys(all).length >= MAX_ENTRIES) return;
    all[id] = { type: c.type, durationMs: c.durationMs };
  }
  try {
    localStorage.setItem(SLOT, JSON.stringify(all));
  } catch {
    // A full or blocked storage keeps the old choices; the row shows what is stored.
  }
  for (const l of [...listeners]) l();
}

/** The scene's own choice, re-rendered when any scene's changes. */
export function useSceneTransition(id: string): Choice | null {
  const [c, setC] = useState(() => sceneTransition(id));
  useEffect(() => {
    const check = (): void => setC(sceneTransition(id));
    listeners.add(check);
    check();
    return () => void listeners.delete(check);
  }, [id]);
  return c;
}
