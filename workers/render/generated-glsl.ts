// What every shader vjd writes itself (a fused run of effects, a one-pass composition of layers) starts from: one
// vertex shader handing the fragment its normalized coordinate, the ISF built-ins the included files expect, and
// the precision reset that keeps an included file's own precision statement from reaching the code after it.
import { BUILTIN_UNIFORMS, PALETTE_COLOR_FUNCTION } from './isf-builtins.js';
import { POSITION_ATTRIBUTE } from './isf-glsl.js';

export const GENERATED_VERTEX = `precision highp float;
attribute vec2 ${POSITION_ATTRIBUTE};
varying vec2 isf_FragNormCoord;
void main() {
  isf_FragNormCoord = ${POSITION_ATTRIBUTE} * 0.5 + 0.5;
  gl_Position = vec4(${POSITION_ATTRIBUTE}, 0.0, 1.0);
}`;

/** After each included file: its own precision statement must not reach the next one. */
export const PRECISION_RESET: readonly string[] = ['precision highp float;', 'precision highp int;'];

/** The head of a generated fragment shader: precision, the ISF built-ins, the coordinate, the palette helper. */
export function generatedPrelude(extra: readonly string[] = []): string[] {
  return [...PRECISION_RESET, ...BUILTIN_UNIFORMS, ...extra, 'varying vec2 isf_FragNormCoord;', PALETTE_COLOR_FUNCTION];
}
