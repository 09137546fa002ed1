// A blend file's functions as they go into a one-pass composition: everything but `main`, every top-level name
// renamed with a per-mode prefix so several modes (and vjd's own names) live in one shader without clashes.
import type { IsfDescriptor } from '../../../src/shared/isf-types.js';
import { findMain, topLevelNames } from '../fuse/analyze.js';
import { identifiers, renameIdentifiers, stripComments } from '../fuse/glsl-scan.js';

export interface BlendCode {
  /** Declarations to paste at the top level of the composed shader. */
  code: string;
  /** The renamed `vjdBlend`. */
  blend: string;
  /** The renamed `vjdWeight`, or null when the file has none (strength = opacity). */
  weight: string | null;
}

/** Names only `main` may use: the images and the opacity are the compositor's in the one-pass form. */
const MAIN_ONLY = new Set(['baseImage', 'layerImage', 'opacity', 'gl_FragColor', 'discard', 'uniform', 'varying', 'attribute']);

/** Extracts the functions of `desc` under `prefix`; throws (the mode then draws with its own program) when it cannot. */
export function blendCode(desc: IsfDescriptor, prefix: string): BlendCode {
  const src = stripComments(desc.fragment);
  const main = findMain(src);
  if (!main) throw new Error('no single void main()');
  const rest = `${src.slice(0, main.start)}\n${src.slice(main.close + 1)}`;
  const renames = new Map<string, string>();
  for (const m of rest.matchAll(/^[ \t]*#[ \t]*(\w+)([^\n]*)/gm)) {
    if (m[1] !== 'define' && m[1] !== 'undef') throw new Error(`uses #${m[1]}`);
    const name = /^\s*([A-Za-z_]\w*)/.exec(m[2]!)?.[1];
    if (name) renames.set(name, prefix + name);
  }
  const names = topLevelNames(rest);
  if (!names) throw new Error('a top-level declaration it cannot read');
  for (const n of names) renames.set(n, prefix + n);
  for (const id of identifiers(rest)) {
    if (id.member) continue;
    if (MAIN_ONLY.has(id.name) || id.name.startsWith('IMG_')) throw new Error(`uses ${id.name} outside main`);
  }
  if (!renames.has('vjdBlend')) throw new Error('no vjdBlend function');
  const code = renameIdentifiers(rest, (n) => renames.get(n));
  return { code, blend: `${prefix}vjdBlend`, weight: renames.has('vjdWeight') ? `${prefix}vjdWeight` : null };
}
