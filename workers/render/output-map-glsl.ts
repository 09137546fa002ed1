// The output-mapping passes' shaders. Both end in shade(): a point of the slice (0..1, origin top-left) to its
// colour, the program's or the test card's, dimmed by the soft edges; outside the slice is black. Each map gets a
// variant with only the parts it uses (defines CARD, BLEND, WARP): on a software renderer every instruction of a
// full-screen pass counts.

const SHADE = `uniform sampler2D src;
uniform vec4 slice;
uniform vec2 sliceSize;
uniform vec4 blend;
uniform float invGamma;

float ramp(float t) {
  float u = clamp(t, 0.0, 1.0);
  float light = u < 0.5 ? 2.0 * u * u : 1.0 - 2.0 * (1.0 - u) * (1.0 - u);
  return pow(light, invGamma);
}

// A grid of eight cells a side, a circle of 0.4 of the short side, and 4 % edge bands: top red, right green,
// bottom blue, left yellow, so orientation and overlap read at a glance.
vec3 testCard(vec2 l) {
  vec2 px = l * sliceSize;
  vec2 m = mod(px, sliceSize / 8.0);
  vec3 c = (m.x < 2.0 || m.y < 2.0) ? vec3(0.8) : vec3(0.15);
  float r = length(px - sliceSize * 0.5);
  if (abs(r - 0.4 * min(sliceSize.x, sliceSize.y)) < 2.0) c = vec3(1.0);
  if (l.y < 0.04) c = vec3(1.0, 0.0, 0.0);
  else if (l.x > 0.96) c = vec3(0.0, 1.0, 0.0);
  else if (l.y > 0.96) c = vec3(0.0, 0.0, 1.0);
  else if (l.x < 0.04) c = vec3(1.0, 1.0, 0.0);
  return c;
}

vec3 shade(vec2 l) {
#ifdef WARP
  if (l.x < 0.0 || l.x > 1.0 || l.y < 0.0 || l.y > 1.0) return vec3(0.0);
#endif
#ifdef CARD
  vec3 c = testCard(l);
#else
  vec2 img = slice.xy + l * slice.zw;
  vec3 c = texture2D(src, vec2(img.x, 1.0 - img.y)).rgb;
#endif
#ifdef BLEND
  float k = 1.0;
  if (blend.x > 0.0) k *= ramp(l.x / blend.x);
  if (blend.y > 0.0) k *= ramp((1.0 - l.x) / blend.y);
  if (blend.z > 0.0) k *= ramp(l.y / blend.z);
  if (blend.w > 0.0) k *= ramp((1.0 - l.y) / blend.w);
  c *= k;
#endif
  return c;
}
`;

/** Full-screen pass: each output point goes back through the corner-pin's inverse (identity without one). */
export const PIN_FRAGMENT = `${SHADE}
uniform mat3 inverse;
varying vec2 uv;
void main() {
#ifdef WARP
  vec3 q = inverse * vec3(uv.x, 1.0 - uv.y, 1.0);
  gl_FragColor = vec4(q.z > 0.0 ? shade(q.xy / q.z) : vec3(0.0), 1.0);
#else
  gl_FragColor = vec4(shade(vec2(uv.x, 1.0 - uv.y)), 1.0);
#endif
}`;

/** The mesh is drawn as triangles placed on the output (origin top-left), each vertex carrying its slice point. */
export const MESH_VERTEX = `
attribute vec2 position;
attribute vec2 local;
varying vec2 at;
void main() {
  at = local;
  gl_Position = vec4(position.x * 2.0 - 1.0, 1.0 - position.y * 2.0, 0.0, 1.0);
}`;

export const MESH_FRAGMENT = `${SHADE}
varying vec2 at;
void main() {
  gl_FragColor = vec4(shade(at), 1.0);
}`;
