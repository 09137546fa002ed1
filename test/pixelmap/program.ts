// The program the pixel-mapping server tests draw: red | light green | dark blue by thirds, so white extraction
// (light green has a grey part) and gamma (dark blue is mid-level) change what a fixture sends.
export const W = 160;

export const THIRDS = `/*{ "NAME": "Thirds", "INPUTS": [] }*/
void main() {
  float x = isf_FragNormCoord.x;
  vec3 c = x < 1.0 / 3.0 ? vec3(1.0, 0.0, 0.0) : x < 2.0 / 3.0 ? vec3(100.0 / 255.0, 1.0, 100.0 / 255.0) : vec3(0.0, 0.0, 128.0 / 255.0);
  gl_FragColor = vec4(c, 1.0);
}`;

/** The colour at normalised x (a pixel centre). */
export const third = (x: number): number[] => (x < 1 / 3 ? [255, 0, 0] : x < 2 / 3 ? [100, 255, 100] : [0, 0, 128]);
