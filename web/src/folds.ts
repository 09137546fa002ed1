// Which effects' parameters are folded away, kept in this browser's localStorage. Parameters show by default (a
// performer on a phone should not have to open each effect); a fold is remembered per effect type, since a chain
// item has no id that outlives a reorder or a removal above it.
import { useEffect, useState } from 'preact/hooks';

const SLOT = 'vjd.foldedEffects';
/** More than there are effect types: a store filled by leftovers stops growing. */
const MAX_ENTRIES = 256;
const listeners = new Set<() => void>();

function read(): Set<string> {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(SLOT) ?? '[]');
    return new Set(Array.isArray(v) ? v.filter((t): t is string => typeof t === 'string') : []);
  } catch {
    return new Set();
  }
}

/** Kept in memory too, so a fold still works for this visit when storage refuses it. */
const folded = read();

/** Folds (or unfolds) the parameters of every chain item of this type. */
export function setFolded(type: string, fold: boolean): void {
  if (fold && !folded.has(type) && folded.size >= MAX_ENTRIES) return;
  if (fold) folded.add(type);
  else folded.delete(type);
  try {
    localStorage.setItem(SLOT, JSON.stringify([...folded]));
  } catch {
    // Storage refused: the fold holds until a reload.
  }
  for (const l of [...listeners]) l();
}

/** Whether a type's parameters are folded away; the caller re-renders when any fold changes. */
export function useFolds(): (type: string) => boolean {
  const [, setVersion] = useState(0);
  useEffect(() => {
    const bump = (): void => setVersion((n) => n + 1);
    listeners.add(bump);
    return () => void listeners.delete(bump);
  }, []);
  return (type) => folded.has(type);
}
