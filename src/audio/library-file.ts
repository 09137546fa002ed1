// The media file an audio `file` input plays, named the way the library names files: a media id from GET /browse,
// or a path inside a media root as the library lists it (`loops/tone.wav`). The name is only ever looked up: a
// media id in the library's snapshot, a path joined onto a root and kept only when its real path stays inside that
// root and is a regular file. Anything else is refused with the reason, so no path from the network reaches ffmpeg.
import { realpath, stat } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import type { MediaSnapshot } from '../library/media-library.js';

export interface LibraryFiles {
  readonly roots: readonly string[];
  snapshot(): MediaSnapshot;
}

const MEDIA_ID = /^media-[0-9a-f]{16}$/;

/** Why `name` cannot be a path inside a root, before anything is looked up (null when its form is fine). */
export function fileNameProblem(name: string): string | null {
  if (name.startsWith('-')) return 'must be a media file name, not ffmpeg option text';
  if (/[\x00-\x1f\x7f\\]/.test(name)) return 'must not contain control characters or backslashes';
  if (name.startsWith('/')) return 'must be a media id or a path inside a media root, not an absolute path';
  if (/^[a-z][a-z0-9+.-]*:/i.test(name)) return 'must be a media id or a path inside a media root, not a URL (use kind "stream")';
  const parts = name.split('/');
  if (parts.some((p) => p === '' || p === '.' || p === '..')) return 'must be a path inside a media root: no empty, "." or ".." segments';
  return null;
}

/** The absolute path of the library file `name` names, or the reason it names none. */
export async function resolveLibraryFile(lib: LibraryFiles, name: string): Promise<{ path: string } | { problem: string }> {
  if (MEDIA_ID.test(name)) {
    const f = lib.snapshot().byId.get(name);
    if (!f) return { problem: `names no media file (GET /browse lists the ids under /files)` };
    if (f.type === 'image') return { problem: 'names a still image, which has no sound' };
    return { path: f.path };
  }
  const bad = fileNameProblem(name);
  if (bad) return { problem: bad };
  for (const root of lib.roots) {
    const found = await inside(root, name);
    if (found) return { path: found };
  }
  return { problem: 'names no file in the media library (a media id from GET /browse, or a path inside a media root)' };
}

/** The real path of `root/name` when it is a regular file whose real path stays inside the root's; null otherwise. */
async function inside(root: string, name: string): Promise<string | null> {
  try {
    const realRoot = await realpath(root);
    const real = await realpath(resolve(root, name));
    if (!real.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep)) return null;
    return (await stat(real)).isFile() ? real : null;
  } catch {
    return null;
  }
}
