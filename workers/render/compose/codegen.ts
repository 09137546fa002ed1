// Generates the one-pass composition shader for a sequence of blend modes: the base texture, then layer k sampled
// from `vjd_layerK` and blended with its mode's own `vjdBlend` (and `vjdWeight`) at `vjd_opacityK`, bottom to top.
import { generatedPrelude, PRECISION_RESET } from '../generated-glsl.js';
import type { BlendCode } from './blend-source.js';

/** The shader's sampler of layer k (0-based, bottom first) and its opacity uniform. */
export const layerSampler = (k: number): string => `vjd_layer${k}`;
export const layerOpacity = (k: number): string => `vjd_opacity${k}`;
export const BASE_SAMPLER = 'vjd_base';

/** The fragment shader composing `modes` (one per layer, bottom first); `code` gives each distinct mode's functions. */
export function composeFragment(modes: readonly string[], code: ReadonlyMap<string, BlendCode>): string {
  const lines = generatedPrelude([`uniform sampler2D ${BASE_SAMPLER};`]);
  modes.forEach((_, k) => lines.push(`uniform sampler2D ${layerSampler(k)};`, `uniform float ${layerOpacity(k)};`));
  for (const mode of new Set(modes)) {
    lines.push(`// ${mode}`, code.get(mode)!.code, ...PRECISION_RESET);
  }
  lines.push('void main() {', `  vec4 vjd_acc = texture2D(${BASE_SAMPLER}, isf_FragNormCoord);`, '  vec4 vjd_top;', '  float vjd_k;');
  modes.forEach((mode, k) => {
    const c = code.get(mode)!;
    // The same expression as a blend file's main: mix towards the blended colour at opacity × weight.
    lines.push(
      `  vjd_top = texture2D(${layerSampler(k)}, isf_FragNormCoord);`,
      `  vjd_k = ${layerOpacity(k)}${c.weight ? ` * ${c.weight}(vjd_top)` : ''};`,
      `  vjd_acc = vec4(mix(vjd_acc.rgb, ${c.blend}(vjd_acc.rgb, vjd_top.rgb), vjd_k), vjd_acc.a + (1.0 - vjd_acc.a) * vjd_k);`,
    );
  });
  lines.push('  gl_FragColor = vjd_acc;', '}');
  return `${lines.join('\n')}\n`;
}
