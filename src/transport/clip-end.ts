// What follows the end of the program's clip when its end mode says so: a take of the cued source, or the next
// video of the same media folder (wrapping to the first), so a short playlist runs unattended.
import type { Logger } from '../log.js';
import type { MediaFile } from '../library/scan.js';
import type { ClipEnd } from './settings.js';

/** The video after `id` in the same folder of the same root, in library order, wrapping; null when it is alone. */
export function nextInFolder(files: readonly MediaFile[], id: string): MediaFile | null {
  const cur = files.find((f) => f.id === id);
  if (!cur) return null;
  const dir = (f: MediaFile): string => f.relPath.slice(0, Math.max(0, f.relPath.lastIndexOf('/')));
  const folder = files.filter((f) => f.type === 'video' && f.rootIndex === cur.rootIndex && dir(f) === dir(cur));
  const at = folder.findIndex((f) => f.id === id);
  const next = folder[(at + 1) % folder.length];
  return next && next.id !== id ? next : null;
}

export interface ClipEndDeps {
  files(): readonly MediaFile[];
  /** A take of the cued source with the mixer's transition. */
  take(): Promise<unknown>;
  /** Selects media file `id` to the program. */
  select(id: string): Promise<unknown>;
  log: Logger;
}

/** Runs the end action of the program's clip `id`; a failure is logged (nobody waits for an answer). */
export async function runClipEnd(d: ClipEndDeps, id: string, end: Extract<ClipEnd, 'take' | 'next'>): Promise<void> {
  try {
    if (end === 'take') await d.take();
    else {
      const next = nextInFolder(d.files(), id);
      if (next) await d.select(next.id);
    }
  } catch (err) {
    d.log.warn({ id, end, err: (err as Error).message }, 'the clip end action did not run');
  }
}
