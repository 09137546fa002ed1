// Parses an ISF v2 file (JSON header comment + GLSL ES 1.00 fragment) into an IsfDescriptor, with clear rejection reasons.
import {
  ISF_AUDIO_MAX_COLUMNS,
  ISF_AUDIO_UNIFORMS,
  type IsfDescriptor,
  type IsfInput,
  type IsfInputType,
  type IsfPass,
} from '../shared/isf-types.js';
import { exprVariables, IsfExprError, parseSizeExpr } from '../shared/isf-expr.js';
import { parseImported } from './imported-header.js';

export const MAX_ISF_BYTES = 256 * 1024;

const INPUT_TYPES: readonly IsfInputType[] = ['float', 'long', 'bool', 'color', 'point2D', 'image', 'event', 'audio', 'audioFFT'];
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
// Names the generated GLSL declares itself; an input or buffer with one of these would not compile.
const RESERVED = new Set([
  'TIME',
  'TIMEDELTA',
  'FRAMEINDEX',
  'RENDERSIZE',
  'PASSINDEX',
  'DATE',
  'PALETTE',
  'PALETTE_COUNT',
  'PALETTE_COLOR',
  'isf_FragNormCoord',
  'isf_position',
  'WIDTH',
  'HEIGHT',
  ...ISF_AUDIO_UNIFORMS,
]);
// GLSL ES 1.00 keywords and reserved words (spec 3.6): a uniform with one of these names cannot compile.
const GLSL_WORDS = new Set(
  (
    'attribute const uniform varying break continue do for while if else in out inout float int void bool true false ' +
    'lowp mediump highp precision invariant discard return mat2 mat3 mat4 vec2 vec3 vec4 ivec2 ivec3 ivec4 bvec2 ' +
    'bvec3 bvec4 sampler2D samplerCube struct asm class union enum typedef template this packed goto switch default ' +
    'inline noinline volatile public static extern external interface flat long short double half fixed unsigned ' +
    'superp input output hvec2 hvec3 hvec4 dvec2 dvec3 dvec4 fvec2 fvec3 fvec4 sampler1D sampler3D sampler1DShadow ' +
    'sampler2DShadow sampler2DRect sampler3DRect sampler2DRectShadow sizeof cast namespace using main'
  ).split(' '),
);
const isReserved = (name: string): boolean =>
  RESERVED.has(name) || GLSL_WORDS.has(name) || name.startsWith('gl_') || name.startsWith('webgl_') || name.includes('__');

export class IsfParseError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'IsfParseError';
  }
}

/** `Hue Shift.fs` → `hue_shift`; throws when nothing usable is left. */
export function isfTypeFromFileName(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const stem = base.includes('.') && !base.startsWith('.') ? base.slice(0, base.lastIndexOf('.')) : base;
  const type = stem
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (!type) throw new IsfParseError(`file name "${fileName}" gives an empty type`);
  return type;
}

function titleCase(type: string): string {
  return type
    .split('_')
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(' ');
}

function lineCol(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const col = offset - before.lastIndexOf('\n');
  return `line ${line} column ${col}`;
}

const fail = (reason: string): never => {
  throw new IsfParseError(reason);
};

function num(v: unknown, what: string): number {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n)) fail(`${what} must be a number`);
  return n as number;
}

function bool(v: unknown, what: string): boolean {
  if (typeof v === 'boolean') return v;
  if (v === 1 || v === 0) return v === 1;
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  return fail(`${what} must be a boolean`);
}

function vec(v: unknown, len: 2 | 4, what: string): number[] {
  if (!Array.isArray(v) || v.length < (len === 4 ? 3 : 2) || v.length > len)
    fail(`${what} must be an array of ${len === 4 ? '3 or 4' : '2'} numbers`);
  const out = (v as unknown[]).map((x, i) => num(x, `${what}[${i}]`));
  if (len === 4 && out.length === 3) out.push(1);
  return out;
}

function clampNum(v: number, min: number | undefined, max: number | undefined): number {
  if (min !== undefined && v < min) v = min;
  if (max !== undefined && v > max) v = max;
  return v;
}

/** Puts a MIN above MAX back in order, as desktop hosts do, and says so in `warnings`. */
function ordered(
  min: number | undefined,
  max: number | undefined,
  at: string,
  warnings: string[],
): [number | undefined, number | undefined] {
  if (min === undefined || max === undefined || min <= max) return [min, max];
  warnings.push(`${at}: MIN ${min} is greater than MAX ${max}; swapped`);
  return [max, min];
}

function parseInput(raw: unknown, index: number, warnings: string[]): IsfInput {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return fail(`INPUTS[${index}] is not an object`);
  const o = raw as Record<string, unknown>;
  if (typeof o.NAME !== 'string' || o.NAME === '') return fail(`INPUTS[${index}] has no NAME`);
  const name = o.NAME;
  const at = `input "${name}"`;
  if (!IDENT.test(name)) fail(`${at}: NAME is not a GLSL identifier`);
  if (isReserved(name)) fail(`${at}: NAME is a reserved word`);
  if (typeof o.TYPE !== 'string') return fail(`${at} has no TYPE`);
  if (!INPUT_TYPES.includes(o.TYPE as IsfInputType)) fail(`${at}: unknown TYPE "${o.TYPE}" (expected ${INPUT_TYPES.join(', ')})`);
  const type = o.TYPE as IsfInputType;
  const input: IsfInput = { name, type };
  if (typeof o.LABEL === 'string') input.label = o.LABEL;
  const has = (k: string): boolean => o[k] !== undefined && o[k] !== null;

  switch (type) {
    case 'float':
    case 'long': {
      const [min, max] = ordered(
        has('MIN') ? num(o.MIN, `${at} MIN`) : undefined,
        has('MAX') ? num(o.MAX, `${at} MAX`) : undefined,
        at,
        warnings,
      );
      if (min !== undefined) input.min = min;
      if (max !== undefined) input.max = max;
      let values: number[] | undefined;
      if (type === 'long' && has('VALUES')) {
        if (!Array.isArray(o.VALUES) || o.VALUES.length === 0) fail(`${at}: VALUES must be a non-empty array`);
        values = (o.VALUES as unknown[]).map((v, i) => Math.round(num(v, `${at} VALUES[${i}]`)));
        input.values = values;
        if (has('LABELS')) {
          if (!Array.isArray(o.LABELS) || o.LABELS.length !== values.length) fail(`${at}: LABELS must match VALUES in length`);
          input.labels = (o.LABELS as unknown[]).map(String);
        }
      }
      let d = has('DEFAULT') ? num(o.DEFAULT, `${at} DEFAULT`) : (values?.[0] ?? min ?? 0);
      d = clampNum(d, min, max);
      if (type === 'long') {
        d = Math.round(d);
        if (values && !values.includes(d)) d = values[0]!;
      }
      input.default = d;
      break;
    }
    case 'bool':
    case 'event':
      input.default = has('DEFAULT') ? bool(o.DEFAULT, `${at} DEFAULT`) : false;
      break;
    case 'color':
    case 'point2D': {
      const len = type === 'color' ? 4 : 2;
      if (has('MIN')) input.min = vec(o.MIN, len, `${at} MIN`);
      if (has('MAX')) input.max = vec(o.MAX, len, `${at} MAX`);
      if (Array.isArray(input.min) && Array.isArray(input.max)) {
        const lo = input.min;
        const hi = input.max;
        if (lo.some((v, i) => v > hi[i]!)) {
          warnings.push(`${at}: MIN is greater than MAX in some components; swapped there`);
          input.min = lo.map((v, i) => Math.min(v, hi[i]!));
          input.max = hi.map((v, i) => Math.max(v, lo[i]!));
        }
      }
      const d = has('DEFAULT') ? vec(o.DEFAULT, len, `${at} DEFAULT`) : type === 'color' ? [0, 0, 0, 1] : [0, 0];
      const lo = input.min as number[] | undefined;
      const hi = input.max as number[] | undefined;
      input.default = d.map((v, i) => clampNum(v, lo?.[i], hi?.[i]));
      break;
    }
    case 'audio':
    case 'audioFFT':
      // MAX: the columns (samples or bins) the shader wants; absent, it gets every one the analysis has.
      if (has('MAX')) {
        const columns = Math.round(num(o.MAX, `${at} MAX`));
        if (columns < 1 || columns > ISF_AUDIO_MAX_COLUMNS) fail(`${at}: MAX must be 1 to ${ISF_AUDIO_MAX_COLUMNS} columns`);
        input.max = columns;
      }
      break;
    case 'image':
      break;
  }
  return input;
}

function sizeExpr(v: unknown, what: string, names: Set<string>): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string' && typeof v !== 'number') return fail(`${what} must be a string or a number`);
  const expr = String(v);
  try {
    for (const name of exprVariables(parseSizeExpr(expr))) {
      if (name !== 'WIDTH' && name !== 'HEIGHT' && !names.has(name)) fail(`${what}: unknown variable "${name}"`);
    }
  } catch (err) {
    if (err instanceof IsfExprError) fail(`${what}: ${err.message}`);
    throw err;
  }
  return expr;
}

function parsePasses(raw: unknown, inputs: IsfInput[]): IsfPass[] {
  if (raw === undefined || raw === null) return [{ persistent: false, float: false }];
  if (!Array.isArray(raw)) return fail('PASSES must be an array');
  if (raw.length === 0) return [{ persistent: false, float: false }];
  const numeric = new Set(inputs.filter((i) => i.type === 'float' || i.type === 'long' || i.type === 'bool').map((i) => i.name));
  const inputNames = new Set(inputs.map((i) => i.name));
  const targets = new Set<string>();
  return raw.map((p: unknown, i): IsfPass => {
    const at = `PASSES[${i}]`;
    if (p === null || typeof p !== 'object' || Array.isArray(p)) return fail(`${at} is not an object`);
    const o = p as Record<string, unknown>;
    const pass: IsfPass = {
      persistent: o.PERSISTENT === undefined ? false : bool(o.PERSISTENT, `${at} PERSISTENT`),
      float: o.FLOAT === undefined ? false : bool(o.FLOAT, `${at} FLOAT`),
    };
    if (o.TARGET !== undefined && o.TARGET !== null && o.TARGET !== '') {
      if (typeof o.TARGET !== 'string' || !IDENT.test(o.TARGET)) fail(`${at}: TARGET must be a GLSL identifier`);
      const t = o.TARGET as string;
      if (inputNames.has(t)) fail(`${at}: TARGET "${t}" has the name of an input`);
      if (isReserved(t)) fail(`${at}: TARGET "${t}" is a reserved word`);
      // The same buffer written by two passes is legal ISF; the flags of its first pass apply.
      targets.add(t);
      pass.target = t;
    }
    const width = sizeExpr(o.WIDTH, `${at} WIDTH`, numeric);
    const height = sizeExpr(o.HEIGHT, `${at} HEIGHT`, numeric);
    if (width !== undefined) pass.width = width;
    if (height !== undefined) pass.height = height;
    return pass;
  });
}

/** Turns ISF text into a descriptor; throws IsfParseError with a human-readable reason. */
export function parseIsf(text: string, opts: { file: string; fileName: string; vertex?: string }): IsfDescriptor {
  if (Buffer.byteLength(text, 'utf8') > MAX_ISF_BYTES) fail(`file is larger than ${MAX_ISF_BYTES / 1024} KiB`);
  const type = isfTypeFromFileName(opts.fileName);
  const start = /^\uFEFF?\s*\/\*/.exec(text);
  if (!start) return fail('no ISF header: the file must start with a /*{ ... }*/ JSON comment');
  const close = text.indexOf('*/', start[0].length);
  if (close < 0) return fail('no ISF header: the opening /* is never closed');
  const jsonStart = start[0].length;
  const jsonText = text.slice(jsonStart, close);
  if (!jsonText.trim().startsWith('{')) return fail('no ISF header: the first comment does not hold a JSON object');
  let header: unknown;
  try {
    header = JSON.parse(jsonText);
  } catch (err) {
    const msg = (err as Error).message;
    const m = /position (\d+)/.exec(msg);
    const where = m ? ` at ${lineCol(text, jsonStart + Number(m[1]))}` : '';
    return fail(`bad JSON in header${where}: ${msg.replace(/ in JSON at position \d+.*$/, '')}`);
  }
  if (header === null || typeof header !== 'object' || Array.isArray(header)) return fail('header JSON is not an object');
  const h = header as Record<string, unknown>;

  if (h.INPUTS !== undefined && !Array.isArray(h.INPUTS)) fail('INPUTS must be an array');
  const warnings: string[] = [];
  const inputs = ((h.INPUTS as unknown[] | undefined) ?? []).map((raw, i) => parseInput(raw, i, warnings));
  const seen = new Set<string>();
  for (const i of inputs) {
    if (seen.has(i.name)) fail(`duplicate input name "${i.name}"`);
    seen.add(i.name);
  }
  const passes = parsePasses(h.PASSES, inputs);
  const imported = parseImported(
    h.IMPORTED,
    (name) => {
      if (!IDENT.test(name)) return 'is not a GLSL identifier';
      if (isReserved(name)) return 'is a reserved word';
      if (seen.has(name)) return 'has the name of an input';
      if (passes.some((p) => p.target === name)) return 'has the name of a pass TARGET';
      return null;
    },
    fail,
  );

  const categories = Array.isArray(h.CATEGORIES) ? h.CATEGORIES.filter((c): c is string => typeof c === 'string') : [];
  const name = typeof h.NAME === 'string' && h.NAME.trim() !== '' ? h.NAME.trim() : titleCase(type);
  const kind = inputs.some((i) => i.name === 'inputImage' && i.type === 'image') ? 'effect' : 'generator';
  // Newlines stand in for the header so a GLSL error line number is the line in the file.
  const headerLines = text.slice(0, close + 2).split('\n').length - 1;
  const fragment = '\n'.repeat(headerLines) + text.slice(close + 2);
  if (!/\bvoid\s+main\s*\(/.test(fragment)) fail('the shader has no main() function');

  const desc: IsfDescriptor = {
    type,
    name,
    kind,
    file: opts.file,
    description: typeof h.DESCRIPTION === 'string' ? h.DESCRIPTION : '',
    categories,
    inputs,
    passes,
    fragment,
  };
  if (typeof h.CREDIT === 'string') desc.credit = h.CREDIT;
  if (opts.vertex !== undefined) desc.vertex = opts.vertex;
  if (imported.length > 0) desc.imported = imported;
  if (warnings.length > 0) desc.warnings = warnings;
  return desc;
}
