// Reads an ISF header's IMPORTED section (object and array forms) into names and folder-relative paths; a path that
// cannot be used (a cube map, leaving the folder) becomes that image's error, so the file stays listed and says why.
import { ISF_IMPORTED_LIMITS } from '../limits.js';
import type { IsfImported } from '../shared/isf-types.js';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Why a header path may not be opened relative to the shader's folder, or null when it may. */
export function pathProblem(path: string): string | null {
  if (path.startsWith('/') || path.startsWith('\\') || /^[A-Za-z]:/.test(path))
    return 'is absolute; IMPORTED paths are relative to the shader';
  if (path.split(/[\\/]/).some((part) => part === '..')) return 'leaves the shader\'s folder ("..")';
  if (path.includes('\0')) return 'holds a NUL character';
  return null;
}

/**
 * `{"name": {"PATH": "file.png"}}` or `[{"NAME": "name", "PATH": "file.png"}]`. `nameProblem` says why a name
 * cannot be a sampler uniform; `fail` rejects the whole file for a malformed section (as for INPUTS).
 */
export function parseImported(raw: unknown, nameProblem: (name: string) => string | null, fail: (reason: string) => never): IsfImported[] {
  if (raw === undefined || raw === null) return [];
  let entries: Array<[string, unknown]>;
  if (Array.isArray(raw)) {
    entries = raw.map((e, i): [string, unknown] => {
      if (!isObject(e) || typeof e.NAME !== 'string' || e.NAME === '') return fail(`IMPORTED[${i}] has no NAME`);
      return [e.NAME, e];
    });
  } else if (isObject(raw)) entries = Object.entries(raw);
  else return fail('IMPORTED must be an object or an array');
  if (entries.length > ISF_IMPORTED_LIMITS.maxPerFile) {
    fail(`IMPORTED names ${entries.length} images; at most ${ISF_IMPORTED_LIMITS.maxPerFile} per file`);
  }
  const seen = new Set<string>();
  return entries.map(([name, spec]) => {
    const at = `IMPORTED "${name.slice(0, 64)}"`;
    const bad = nameProblem(name);
    if (bad) fail(`${at}: the name ${bad}`);
    if (seen.has(name)) fail(`${at} is named twice`);
    seen.add(name);
    if (!isObject(spec)) return fail(`${at} is not an object with a PATH`);
    const path = spec.PATH;
    if (spec.TYPE === 'cube' || Array.isArray(path)) {
      return {
        name,
        path: String((Array.isArray(path) ? path[0] : path) ?? '').slice(0, ISF_IMPORTED_LIMITS.pathMaxLength),
        error: `${at}: cube maps are not supported (2D images only)`,
      };
    }
    if (typeof path !== 'string' || path === '') return fail(`${at} has no PATH`);
    if (path.length > ISF_IMPORTED_LIMITS.pathMaxLength) fail(`${at}: PATH is longer than ${ISF_IMPORTED_LIMITS.pathMaxLength} characters`);
    const problem = pathProblem(path);
    return problem ? { name, path, error: `${at}: path "${path}" ${problem}` } : { name, path };
  });
}
