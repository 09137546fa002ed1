// Decides from an effect's parsed ISF source whether it can be fused: exactly one read of inputImage per fragment,
// one pass, no buffers, no other images, nothing the code generator does not understand. Unsure means no.
import type { IsfDescriptor } from '../../../src/shared/isf-types.js';
import { DECL_WORDS, callArgs, identifiers, matchBracket, stripComments } from './glsl-scan.js';

export interface Fusable {
  fusable: true;
  /**
   * `pixel`: the read is at the fragment's own coordinate, so the effect may follow another one in a fused run
   * exactly. `remap`: it reads elsewhere; only the first effect of a run reads a texture, whose bilinear filter
   * the fused code could not reproduce from a function, so a remap starts a run.
   */
  read: 'pixel' | 'remap';
  /** Comment-free source. */
  source: string;
  /** Offsets in `source`: the `void main()` header start, its body `{` and `}`. */
  main: { start: number; open: number; close: number };
  /** Names declared at the top level (functions, globals, consts, macros), renamed per effect when fused. */
  globals: string[];
}

export interface NotFusable {
  fusable: false;
  reason: string;
}

export type Analysis = Fusable | NotFusable;

const READS = new Set(['IMG_PIXEL', 'IMG_NORM_PIXEL', 'IMG_THIS_PIXEL', 'IMG_THIS_NORM_PIXEL']);
const IMG_MACROS = new Set([...READS, 'IMG_SIZE']);
const THIS_COORD = new Set(['isf_FragNormCoord', 'vv_FragNormCoord']);
const LOOPS = new Set(['for', 'while', 'do']);

const cache = new WeakMap<IsfDescriptor, Analysis>();

/** The analysis of one descriptor (memoized per descriptor object). */
export function analyze(desc: IsfDescriptor): Analysis {
  let a = cache.get(desc);
  if (!a) {
    a = run(desc);
    cache.set(desc, a);
  }
  return a;
}

const no = (reason: string): NotFusable => ({ fusable: false, reason });

function run(desc: IsfDescriptor): Analysis {
  if (desc.kind !== 'effect') return no('not an effect');
  if (desc.passes.length !== 1 || desc.passes[0]!.target !== undefined) return no('has PASSES');
  if (desc.vertex !== undefined) return no('has its own vertex shader');
  // An audio texture would need its own sampler unit inside the fused pass; such effects run on their own.
  if (desc.inputs.some((i) => i.type === 'audio' || i.type === 'audioFFT')) return no('has audio inputs');
  if (desc.imported && desc.imported.length > 0) return no('has IMPORTED images');
  const images = desc.inputs.filter((i) => i.type === 'image');
  if (images.length !== 1 || images[0]!.name !== 'inputImage') return no('has other image inputs');
  const src = stripComments(desc.fragment);

  const ids = identifiers(src);
  for (const id of ids) {
    if (id.member) continue;
    if (/^fx(_|\d)/.test(id.name)) return no(`uses the reserved name ${id.name}`);
    if (
      ['discard', 'struct', 'gl_FragData', 'uniform', 'varying', 'attribute', `_inputImage_imgSize`, `_inputImage_imgRect`].includes(
        id.name,
      )
    ) {
      return no(`uses ${id.name}`);
    }
  }
  const globals = new Set<string>();
  for (const m of src.matchAll(/^[ \t]*#[ \t]*(\w+)([^\n]*)/gm)) {
    const [, directive, rest] = m;
    if (directive !== 'define' && directive !== 'undef') return no(`uses #${directive}`);
    if (/\b(inputImage|IMG_\w+|gl_FragColor|return)\b/.test(rest!)) return no('a macro reads the image or writes the output');
    const name = /^\s*([A-Za-z_]\w*)/.exec(rest!)?.[1];
    if (name) globals.add(name);
  }

  const main = findMain(src);
  if (!main) return no('no single void main()');
  const top = topLevelNames(src);
  if (!top) return no('a top-level declaration it cannot read');
  for (const n of top) if (n !== 'main') globals.add(n);

  // Every inputImage must be the image argument of an IMG_* macro; exactly one of them a read, inside main, in no loop.
  let reads = 0;
  let read: 'pixel' | 'remap' = 'pixel';
  let imageRefs = 0;
  for (const id of ids) {
    if (id.member) continue;
    if (id.name === 'inputImage') imageRefs++;
    if (id.name === 'gl_FragColor' && (id.at < main.open || id.at > main.close)) return no('writes gl_FragColor outside main');
    if (!IMG_MACROS.has(id.name)) continue;
    const open = src.indexOf('(', id.at + id.name.length);
    if (open < 0 || src.slice(id.at + id.name.length, open).trim() !== '') return no(`${id.name} without arguments`);
    const call = callArgs(src, open);
    if (!call) return no(`${id.name} is not closed`);
    if (call.args[0]!.trim() !== 'inputImage') return no(`${id.name} of another image`);
    imageRefs--;
    if (!READS.has(id.name)) continue;
    reads++;
    if (id.at < main.open || id.at > main.close) return no('reads the image outside main');
    if (inLoop(src, main.open, id.at)) return no('reads the image in a loop');
    const coord = (call.args[1] ?? '').trim();
    const pixel =
      id.name === 'IMG_THIS_PIXEL' ||
      id.name === 'IMG_THIS_NORM_PIXEL' ||
      (id.name === 'IMG_NORM_PIXEL' && (coord === '' || THIS_COORD.has(coord))) ||
      (id.name === 'IMG_PIXEL' && coord === 'gl_FragCoord.xy');
    if (!pixel) read = 'remap';
  }
  if (imageRefs !== 0) return no('names inputImage outside the IMG_* macros');
  if (reads !== 1) return no(`reads the image ${reads} times`);
  return { fusable: true, read, source: src, main, globals: [...globals] };
}

/** The one `void main()` at the top level: header start and body braces. */
export function findMain(src: string): { start: number; open: number; close: number } | null {
  const found = [...src.matchAll(/\bvoid\s+main\s*\(\s*(void\s*)?\)\s*\{/g)];
  if (found.length !== 1) return null;
  const m = found[0]!;
  const open = m.index! + m[0].length - 1;
  if (depthAt(src, m.index!) !== 0) return null;
  const close = matchBracket(src, open);
  return close < 0 ? null : { start: m.index!, open, close };
}

function depthAt(src: string, at: number): number {
  let d = 0;
  for (let i = 0; i < at; i++) {
    if (src[i] === '{') d++;
    else if (src[i] === '}') d--;
  }
  return d;
}

/** Whether `at` lies in the header or body of a for/while/do inside the block starting at `from`. */
function inLoop(src: string, from: number, at: number): boolean {
  for (const id of identifiers(src.slice(from, at))) {
    if (id.member || !LOOPS.has(id.name)) continue;
    const kw = from + id.at;
    let p = kw + id.name.length;
    while (/\s/.test(src[p] ?? '')) p++;
    if (id.name !== 'do') {
      if (src[p] !== '(') continue;
      p = matchBracket(src, p) + 1;
      while (/\s/.test(src[p] ?? '')) p++;
    }
    // The body: a block, or one statement up to its `;`.
    const end = src[p] === '{' ? matchBracket(src, p) : src.indexOf(';', p);
    if (end < 0 || at < end) return true;
  }
  return false;
}

/**
 * Names declared at brace depth 0: for each top-level statement, the identifier before its first `(`, `=`, `[`,
 * `,` or `;`, and each identifier after a top-level `,` of a variable declaration. Null when a statement does not
 * look like a declaration (a name that is a keyword).
 */
export function topLevelNames(src: string): string[] | null {
  const names: string[] = [];
  // Preprocessor lines are not statements.
  const code = src.replace(/^[ \t]*#[^\n]*/gm, (l) => ' '.repeat(l.length));
  let i = 0;
  while (i < code.length) {
    // One statement: up to `;` at depth 0, or a function body.
    let j = i;
    let paren = 0;
    let end = -1;
    let body = -1;
    for (; j < code.length; j++) {
      const ch = code[j];
      if (ch === '(' || ch === '[') paren++;
      else if (ch === ')' || ch === ']') paren--;
      else if (ch === ';' && paren === 0) {
        end = j;
        break;
      } else if (ch === '{' && paren === 0) {
        body = j;
        end = matchBracket(code, j);
        break;
      } else if (ch === '}') return null;
    }
    const stmt = code.slice(i, body >= 0 ? body : end >= 0 ? end : code.length);
    if (stmt.trim() !== '') {
      const got = statementNames(stmt, body >= 0);
      if (!got) return null;
      names.push(...got);
    }
    if (end < 0) break;
    i = end + 1;
  }
  return names;
}

function statementNames(stmt: string, isFunction: boolean): string[] | null {
  const ids = identifiers(stmt);
  if (ids[0]?.name === 'precision') return [];
  const stop = stmt.search(/[(=[,]/);
  const head = ids.filter((d) => stop < 0 || d.at < stop);
  const name = head[head.length - 1];
  if (!name || DECL_WORDS.has(name.name) || head.length < 2) return null;
  if (!head.slice(0, -1).every((d) => DECL_WORDS.has(d.name))) return null;
  const out = [name.name];
  if (isFunction || stmt[stop] === '(') return out;
  // More declarators: `float a = 1.0, b;`
  let depth = 0;
  for (let k = 0; k < stmt.length; k++) {
    const ch = stmt[k];
    if (ch === '(' || ch === '[') depth++;
    else if (ch === ')' || ch === ']') depth--;
    else if (ch === ',' && depth === 0) {
      const next = /^\s*([A-Za-z_]\w*)/.exec(stmt.slice(k + 1));
      if (!next) return null;
      out.push(next[1]!);
    }
  }
  return out;
}
