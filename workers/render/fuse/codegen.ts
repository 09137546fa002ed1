// Generates one fragment shader for a run of fusable effects: effect k becomes `vec4 fxK(vec2 coord)`, its read of
// inputImage a call of fx(K-1) at the coordinate it asked for (fx0 reads the run's input texture), its inputs and
// top-level names renamed `fxK_<name>` so two copies of one type keep their own values, and its TIME, TIMEDELTA and
// FRAMEINDEX renamed `fxK_TIME` … so each member keeps its own clock.
import type { IsfDescriptor } from '../../../src/shared/isf-types.js';
import { generatedPrelude, PRECISION_RESET } from '../generated-glsl.js';
import { GLSL_TYPE } from '../isf-glsl.js';
import type { Fusable } from './analyze.js';
import { callArgs, identifiers, renameIdentifiers } from './glsl-scan.js';

/** The uniform a fused program gives input `name` of the effect at `k` (1-based position in the run). */
export const uniformName = (k: number, name: string): string => `fx${k}_${name}`;

/** The per-instance built-ins and their GLSL types: each member of a run gets its own copy (`fxK_TIME`). */
export const CLOCK_UNIFORMS: ReadonlyArray<readonly [name: 'TIME' | 'TIMEDELTA' | 'FRAMEINDEX', type: string]> = [
  ['TIME', 'float'],
  ['TIMEDELTA', 'float'],
  ['FRAMEINDEX', 'int'],
];

/** The per-instance built-ins an effect's source names (only those are declared for it in a fused program). */
export function clockUniformsUsed(a: Fusable): ReadonlyArray<readonly [string, string]> {
  const names = new Set(
    identifiers(a.source)
      .filter((id) => !id.member)
      .map((id) => id.name),
  );
  return CLOCK_UNIFORMS.filter(([n]) => names.has(n));
}

// The ISF uniforms every effect of the run shares: one frame, one size, one palette, one audio analysis (as the
// unfused passes see them); the clock built-ins declared here go unused, each member reading its own.
const PRELUDE = [
  ...generatedPrelude(['uniform sampler2D fx_input;', 'uniform vec2 fx_inputSize;']),
  // What an 8-bit ping-pong target stores: the next effect sees the values it would see unfused. About 1.5 ms per
  // effect at 1280×720 on llvmpipe (clamp, floor and scale each a third), so the last effect goes without it (the
  // target's own store rounds, as it does unfused) and the scale is a multiply, not a divide (within an ulp).
  // A value exactly halfway between two steps goes to the even one, as Mesa's store does (an odd result of a tie
  // would flip a downstream step function such as posterize into a palette map).
  'vec4 fx_q(vec4 c) { vec4 x = clamp(c, 0.0, 1.0) * 255.0 + 0.5; vec4 r = floor(x); return (r - step(r, x) * step(x, r) * mod(r, 2.0)) * (1.0 / 255.0); }',
  'vec4 fx0(vec2 c) { return texture2D(fx_input, c); }',
];

/** The fused fragment shader for `run` (descriptors with their analyses, in chain order). */
export function fusedFragment(run: ReadonlyArray<{ desc: IsfDescriptor; analysis: Fusable }>): string {
  const parts = [...PRELUDE];
  run.forEach(({ desc, analysis }, i) => parts.push(effectFunction(i + 1, desc, analysis, i === run.length - 1)));
  parts.push(`void main() { gl_FragColor = fx${run.length}(isf_FragNormCoord); }`);
  return `${parts.join('\n')}\n`;
}

function effectFunction(k: number, desc: IsfDescriptor, a: Fusable, last: boolean): string {
  const result = last ? 'fx_out' : 'fx_q(fx_out)';
  const coord = `fx${k}_coord`;
  const fragCoord = `fx${k}_fragCoord`;
  const renames = new Map<string, string>();
  for (const i of desc.inputs) if (i.type !== 'image') renames.set(i.name, uniformName(k, i.name));
  for (const g of a.globals) renames.set(g, `fx${k}_${g}`);
  const clock = clockUniformsUsed(a);
  for (const [n] of clock) renames.set(n, uniformName(k, n));
  renames.set('isf_FragNormCoord', coord).set('vv_FragNormCoord', coord).set('gl_FragCoord', fragCoord);
  const rename = (s: string): string => renameIdentifiers(s, (n) => renames.get(n));

  const src = a.source;
  const { start, open, close } = a.main;
  const before = rewriteImage(src.slice(0, start), k, rename);
  // Definitions after main (declared by prototypes before it) follow the effect's function.
  const after = rewriteImage(src.slice(close + 1), k, rename);
  let body = rewriteImage(src.slice(open + 1, close), k, rename);
  body = renameIdentifiers(body, (n) => (n === 'gl_FragColor' ? 'fx_out' : undefined));
  // `return;` in main ends the effect with what it wrote so far.
  body = body.replace(/\breturn\s*;/g, `return ${result};`);
  const lines = [
    `// ${k}: ${desc.type}`,
    `vec2 ${coord};`,
    `vec4 ${fragCoord};`,
    ...desc.inputs.filter((i) => i.type !== 'image').map((i) => `uniform ${GLSL_TYPE[i.type]} ${uniformName(k, i.name)};`),
    ...clock.map(([n, type]) => `uniform ${type} ${uniformName(k, n)};`),
    before,
    `vec4 fx${k}(vec2 fx_c) {`,
    `  ${coord} = fx_c;`,
    // The "current pixel" of an effect is the coordinate it was asked for, in gl_FragCoord's pixel units; at the
    // fragment's own coordinate exactly gl_FragCoord, so hashes of it (film grain) give the unfused values.
    `  ${fragCoord} = fx_c == isf_FragNormCoord ? gl_FragCoord : vec4(fx_c * RENDERSIZE, gl_FragCoord.zw);`,
    '  vec4 fx_out = vec4(0.0);',
    body,
    `  return ${result};`,
    '}',
    after,
    ...PRECISION_RESET,
  ];
  return lines.join('\n');
}

const IMG_CALL = /\b(IMG_PIXEL|IMG_NORM_PIXEL|IMG_THIS_PIXEL|IMG_THIS_NORM_PIXEL|IMG_SIZE)\s*\(/g;

/** Renames `text` and turns its IMG_* macros (all on inputImage, as the analysis checked) into fx(K-1) calls. */
function rewriteImage(text: string, k: number, rename: (s: string) => string): string {
  let out = '';
  let last = 0;
  IMG_CALL.lastIndex = 0;
  for (let m = IMG_CALL.exec(text); m; m = IMG_CALL.exec(text)) {
    const open = m.index + m[0].length - 1;
    const call = callArgs(text, open)!;
    const arg = call.args[1] !== undefined ? rewriteImage(call.args[1], k, rename) : '';
    let replaced: string;
    switch (m[1]) {
      case 'IMG_SIZE':
        replaced = 'fx_inputSize';
        break;
      case 'IMG_THIS_PIXEL':
      case 'IMG_THIS_NORM_PIXEL':
        replaced = `fx${k - 1}(fx${k}_coord)`;
        break;
      case 'IMG_NORM_PIXEL':
        replaced = `fx${k - 1}(${arg.trim() === '' ? `fx${k}_coord` : arg})`;
        break;
      default:
        replaced = `fx${k - 1}((${arg}) / fx_inputSize)`;
    }
    out += rename(text.slice(last, m.index)) + replaced;
    last = call.close + 1;
    IMG_CALL.lastIndex = last;
  }
  return out + rename(text.slice(last));
}
