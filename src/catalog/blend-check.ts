// The blend-mode file convention (assets/blends, blends.dirs): what a file must declare for the compositor to use it.
import type { IsfDescriptor } from '../shared/isf-types.js';

/** The function every blend file defines: the blended colour at full strength. */
export const BLEND_FUNCTION = /\bvec3\s+vjdBlend\s*\(\s*vec3\s+\w+\s*,\s*vec3\s+\w+\s*\)\s*\{/;
/** The optional strength function (absent: the strength is the opacity alone). */
export const WEIGHT_FUNCTION = /\bfloat\s+vjdWeight\s*\(\s*vec4\s+\w+\s*\)\s*\{/;

const INPUTS: ReadonlyArray<readonly [string, string]> = [
  ['baseImage', 'image'],
  ['layerImage', 'image'],
  ['opacity', 'float'],
];

const stripComments = (src: string): string => src.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/\/\/[^\n]*/g, ' ');

/** Why an ISF file is not a blend mode, or null when it follows the convention. */
export function blendProblem(d: IsfDescriptor): string | null {
  for (const [name, type] of INPUTS) {
    if (!d.inputs.some((i) => i.name === name && i.type === type)) {
      return 'a blend needs image inputs "baseImage" and "layerImage" and a float input "opacity"';
    }
  }
  // Other inputs would have no value in the one-pass composition, which sets only the opacity.
  if (d.inputs.length !== INPUTS.length) return 'a blend has no inputs besides "baseImage", "layerImage" and "opacity"';
  if (d.passes.length !== 1 || d.passes[0]!.target !== undefined) return 'a blend has one pass and no PASSES buffers';
  if (d.vertex !== undefined) return 'a blend has no vertex shader of its own';
  if (d.imported && d.imported.length > 0) return 'a blend has no IMPORTED images';
  const src = stripComments(d.fragment);
  const blends = src.match(new RegExp(BLEND_FUNCTION.source, 'g'))?.length ?? 0;
  if (blends !== 1) return 'a blend defines one function "vec3 vjdBlend(vec3 base, vec3 top)"';
  if (/\bvjdWeight\b/.test(src) && !WEIGHT_FUNCTION.test(src)) return '"vjdWeight" must be "float vjdWeight(vec4 top)"';
  if (/\bvjd_\w*/.test(src)) return 'names starting "vjd_" are reserved for the compositor';
  return null;
}
