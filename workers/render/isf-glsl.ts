// ISF → GLSL ES 1.00: vertex + fragment sources (uniform prelude, IMG_* rewrite) and compilation with file line numbers.
import { isSamplerInput, type IsfDescriptor, type IsfInput } from '../../src/shared/isf-types.js';
import type { GL } from './gl-util.js';
import { BUILTIN_UNIFORMS, PALETTE_COLOR_FUNCTION } from './isf-builtins.js';

export interface IsfSources {
  vertex: string;
  fragment: string;
  /** Lines the prelude adds before the user's first line (subtract from GL error line numbers). */
  vertexOffset: number;
  fragmentOffset: number;
}

/** The attribute the shared full-screen quad feeds (bound to location 0 before linking). */
export const POSITION_ATTRIBUTE = 'isf_position';

/** The GLSL type of each ISF input type (what its uniform is declared as). */
export const GLSL_TYPE: Record<IsfInput['type'], string> = {
  float: 'float',
  long: 'int',
  bool: 'bool',
  event: 'bool',
  color: 'vec4',
  point2D: 'vec2',
  image: 'sampler2D',
  audio: 'sampler2D',
  audioFFT: 'sampler2D',
};

/** Samplers the shader may name in IMG_* calls: image inputs, pass targets and IMPORTED images, in texture-unit order. */
export function samplerNames(desc: IsfDescriptor): string[] {
  const names = desc.inputs.filter(isSamplerInput).map((i) => i.name);
  for (const p of desc.passes) if (p.target && !names.includes(p.target)) names.push(p.target);
  for (const i of desc.imported ?? []) names.push(i.name);
  return names;
}

function uniformBlock(desc: IsfDescriptor): string[] {
  // Both stages declare the same uniforms with the same (highp) precision, which GLSL ES requires for linking.
  const lines = [...BUILTIN_UNIFORMS];
  for (const i of desc.inputs) if (!isSamplerInput(i)) lines.push(`uniform ${GLSL_TYPE[i.type]} ${i.name};`);
  for (const s of samplerNames(desc)) {
    lines.push(`uniform sampler2D ${s};`, `uniform vec2 _${s}_imgSize;`, `uniform vec4 _${s}_imgRect;`);
  }
  return lines;
}

/** Moves `#version`/`#extension` lines (which must precede declarations) into the header, keeping line numbers. */
function hoistDirectives(src: string): { body: string; hoisted: string[] } {
  const hoisted: string[] = [];
  const body = src.replace(/^[ \t]*#[ \t]*(version|extension)\b[^\n]*/gm, (line, which: string) => {
    if (which === 'extension') hoisted.push(line.trim());
    return '';
  });
  return { body, hoisted };
}

const IMG_CALL = /\b(IMG_PIXEL|IMG_NORM_PIXEL|IMG_THIS_PIXEL|IMG_THIS_NORM_PIXEL|IMG_SIZE)\s*\(/g;

/** Index of the `)` closing the `(` at `open`, and the top-level comma-separated argument texts. */
function scanArgs(src: string, open: number): { close: number; args: string[] } | null {
  let depth = 0;
  let argStart = open + 1;
  const args: string[] = [];
  for (let i = open; i < src.length; i++) {
    const c = src[i];
    if (c === '(') depth++;
    else if (c === ')') {
      depth--;
      if (depth === 0) {
        args.push(src.slice(argStart, i));
        return { close: i, args };
      }
    } else if (c === ',' && depth === 1) {
      args.push(src.slice(argStart, i));
      argStart = i + 1;
    }
  }
  return null;
}

/**
 * Rewrites ISF's image macros into plain texture2D calls. GLSL ES 1.00 macros cannot paste tokens reliably,
 * so the `_<img>_imgSize` uniform is spliced in textually; arguments are rewritten recursively (nesting works).
 * Calls whose image argument is not a plain identifier are left alone so the compiler names them.
 */
export function rewriteImageMacros(src: string): string {
  let out = '';
  let last = 0;
  IMG_CALL.lastIndex = 0;
  for (let m = IMG_CALL.exec(src); m; m = IMG_CALL.exec(src)) {
    const open = m.index + m[0].length - 1;
    const scan = scanArgs(src, open);
    if (!scan) break;
    const img = (scan.args[0] ?? '').trim();
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(img)) continue;
    const rest = scan.args.slice(1).map((a) => rewriteImageMacros(a));
    let call: string;
    switch (m[1]) {
      case 'IMG_SIZE':
        call = `_${img}_imgSize`;
        break;
      case 'IMG_THIS_PIXEL':
      case 'IMG_THIS_NORM_PIXEL':
        call = `texture2D(${img}, isf_FragNormCoord)`;
        break;
      case 'IMG_NORM_PIXEL':
        call = `texture2D(${img}, ${rest.join(',') || 'isf_FragNormCoord'})`;
        break;
      default:
        call = `texture2D(${img}, (${rest.join(',')}) / _${img}_imgSize)`;
    }
    // Keep the newlines a multi-line call spanned so later error line numbers still match the file.
    const newlines = src.slice(m.index, scan.close + 1).split('\n').length - 1;
    out += src.slice(last, m.index) + call + '\n'.repeat(Math.max(0, newlines - (call.split('\n').length - 1)));
    last = scan.close + 1;
    IMG_CALL.lastIndex = last;
  }
  return out + src.slice(last);
}

const DEFAULT_VERTEX_MAIN = 'void main() {\n  isf_vertShaderInit();\n}\n';

/** Builds both stages. Error line N in the user's code is `N - offset` in the compiled source. */
export function buildIsfSources(desc: IsfDescriptor): IsfSources {
  const uniforms = uniformBlock(desc);
  const frag = hoistDirectives(rewriteImageMacros(desc.fragment));
  const fragHead = [
    ...frag.hoisted,
    'precision highp float;',
    'precision highp int;',
    ...uniforms,
    'varying vec2 isf_FragNormCoord;',
    // ISF v1 spelling, still found in shared shaders.
    '#define vv_FragNormCoord isf_FragNormCoord',
    PALETTE_COLOR_FUNCTION,
  ];
  const vert = hoistDirectives(rewriteImageMacros(desc.vertex ?? DEFAULT_VERTEX_MAIN));
  const vertHead = [
    ...vert.hoisted,
    'precision highp float;',
    'precision highp int;',
    ...(desc.vertex !== undefined ? uniforms : []),
    `attribute vec2 ${POSITION_ATTRIBUTE};`,
    'varying vec2 isf_FragNormCoord;',
    '#define vv_FragNormCoord isf_FragNormCoord',
    'void isf_vertShaderInit() {',
    `  isf_FragNormCoord = ${POSITION_ATTRIBUTE} * 0.5 + 0.5;`,
    `  gl_Position = vec4(${POSITION_ATTRIBUTE}, 0.0, 1.0);`,
    '}',
    '#define vv_vertShaderInit isf_vertShaderInit',
  ];
  return {
    vertex: `${vertHead.join('\n')}\n${vert.body}`,
    fragment: `${fragHead.join('\n')}\n${frag.body}`,
    vertexOffset: vertHead.length,
    fragmentOffset: fragHead.length,
  };
}

export class IsfCompileError extends Error {
  /** `log`: the first meaningful line (line numbers are the file's); `fullLog`: everything GL said. */
  constructor(
    readonly log: string,
    readonly fullLog: string,
  ) {
    super(log);
    this.name = 'IsfCompileError';
  }
}

/** The first ERROR line of a GL info log, and the whole log, with line numbers moved back by `offset`. */
function firstError(log: string, offset: number): { line: string; mapped: string } {
  const mapped = log.replace(/(ERROR|WARNING): (\d+):(\d+):/g, (_m, kind: string, str: string, ln: string) => {
    const n = Number(ln) - offset;
    return `${kind}: ${str}:${n >= 1 ? n : ln}:`;
  });
  const lines = mapped
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && l !== '\0');
  const line = lines.find((l) => l.startsWith('ERROR')) ?? lines[0] ?? 'unknown GL error';
  return { line, mapped };
}

const lineBiases = new WeakMap<object, number>();

// headless-gl numbers info-log lines one past the source line (it prepends a line); measured once per context
// with a known error instead of hard-coding, so another GL stack maps correctly too.
function lineBias(gl: GL): number {
  let bias = lineBiases.get(gl);
  if (bias === undefined) {
    bias = 0;
    const probe = gl.createShader(gl.FRAGMENT_SHADER);
    if (probe) {
      gl.shaderSource(probe, 'void main() {\n  vjd_line_probe;\n}\n');
      gl.compileShader(probe);
      const m = /ERROR: \d+:(\d+):/.exec(gl.getShaderInfoLog(probe) ?? '');
      if (m) bias = Number(m[1]) - 2;
      gl.deleteShader(probe);
    }
    lineBiases.set(gl, bias);
  }
  return bias;
}

function compile(gl: GL, kind: number, source: string, offset: number, stage: string): WebGLShader {
  const shader = gl.createShader(kind);
  if (!shader) throw new IsfCompileError('createShader failed (context lost?)', '');
  gl.shaderSource(shader, source);
  gl.compileShader(shader);
  if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS)) {
    const { line, mapped } = firstError(gl.getShaderInfoLog(shader) ?? '', offset + lineBias(gl));
    gl.deleteShader(shader);
    throw new IsfCompileError(stage === 'fragment' ? line : `${stage} shader: ${line}`, mapped);
  }
  return shader;
}

/** Compiles both stages and links with the quad attribute at location 0; throws IsfCompileError. */
export function linkProgram(gl: GL, vs: string, fs: string, vOffset = 0, fOffset = 0): WebGLProgram {
  // WebGL only accepts `#extension X : enable` after the page asked for the extension.
  for (const m of `${vs}\n${fs}`.matchAll(/^[ \t]*#[ \t]*extension[ \t]+GL_(\w+)/gm)) {
    const name = m[1] === 'EXT_draw_buffers' ? 'WEBGL_draw_buffers' : m[1]!;
    gl.getExtension(name);
  }
  const v = compile(gl, gl.VERTEX_SHADER, vs, vOffset, 'vertex');
  let f: WebGLShader;
  try {
    f = compile(gl, gl.FRAGMENT_SHADER, fs, fOffset, 'fragment');
  } catch (err) {
    gl.deleteShader(v);
    throw err;
  }
  const program = gl.createProgram();
  if (!program) {
    gl.deleteShader(v);
    gl.deleteShader(f);
    throw new IsfCompileError('createProgram failed (context lost?)', '');
  }
  gl.attachShader(program, v);
  gl.attachShader(program, f);
  gl.bindAttribLocation(program, 0, POSITION_ATTRIBUTE);
  gl.linkProgram(program);
  // The linked program keeps what it needs; the shader objects are not needed any more.
  gl.detachShader(program, v);
  gl.detachShader(program, f);
  gl.deleteShader(v);
  gl.deleteShader(f);
  if (!gl.getProgramParameter(program, gl.LINK_STATUS)) {
    const log = gl.getProgramInfoLog(program) ?? '';
    gl.deleteProgram(program);
    throw new IsfCompileError(`link: ${firstError(log, 0).line}`, log);
  }
  return program;
}
