// What the program output shows, in words: with one layer the mixer's program bus; with several, the layers the
// compositor draws (not muted, not hidden by another's solo, not transparent, with a source), top first.
import type { LiveState } from './store';

type Stack = NonNullable<LiveState['layers']>;

/** The drawn layers' source names, top first; null when the stack is unknown or has one layer. */
export function composition(stack: Stack | null): string[] | null {
  if (stack === null || stack.layers.length <= 1) return null;
  const solo = stack.layers.some((l) => l.solo);
  return stack.layers
    .filter((l) => !l.mute && (!solo || l.solo) && l.opacity > 0 && l.source.name !== '')
    .map((l) => l.source.name)
    .reverse();
}

/** The program's name as the status line shows it: "—" when nothing is drawn. */
export function onAir(s: Pick<LiveState, 'layers' | 'mix' | 'source'>): string {
  const drawn = composition(s.layers);
  if (drawn !== null) return drawn.length === 0 ? '—' : drawn.join(' over ');
  return s.mix?.program?.name || s.source?.name || '—';
}
