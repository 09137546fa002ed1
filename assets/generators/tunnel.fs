/*{
  "NAME": "Tunnel",
  "DESCRIPTION": "Endless checkered tunnel flying toward the viewer, with twist and spin; palette or two colors.",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Pattern", "Palette"],
  "INPUTS": [
    { "NAME": "speed", "LABEL": "Speed", "TYPE": "float", "MIN": -4.0, "MAX": 4.0, "DEFAULT": 0.6 },
    { "NAME": "spin", "LABEL": "Spin (turns/s)", "TYPE": "float", "MIN": -2.0, "MAX": 2.0, "DEFAULT": 0.05 },
    { "NAME": "twist", "LABEL": "Twist", "TYPE": "float", "MIN": -2.0, "MAX": 2.0, "DEFAULT": 0.15 },
    { "NAME": "segments", "LABEL": "Segments", "TYPE": "float", "MIN": 2.0, "MAX": 32.0, "DEFAULT": 10.0 },
    { "NAME": "depth", "LABEL": "Ring Density", "TYPE": "float", "MIN": 0.1, "MAX": 4.0, "DEFAULT": 1.0 },
    { "NAME": "usePalette", "LABEL": "Palette Colors", "TYPE": "bool", "DEFAULT": true },
    { "NAME": "colorA", "LABEL": "Color A", "TYPE": "color", "DEFAULT": [1.0, 1.0, 1.0, 1.0] },
    { "NAME": "colorB", "LABEL": "Color B", "TYPE": "color", "DEFAULT": [0.1, 0.1, 0.3, 1.0] }
  ]
}*/

const float TAU = 6.2831853;

void main() {
  float aspect = RENDERSIZE.x / RENDERSIZE.y;
  vec2 p = (isf_FragNormCoord - 0.5) * vec2(aspect, 1.0);
  float r = max(length(p), 0.0001);
  float z = 0.25 / r;
  float v = z * depth * 4.0 + TIME * speed;
  // An even segment count keeps the checker continuous where the angle wraps.
  float seg = max(2.0, floor(segments * 0.5) * 2.0);
  float u = (atan(p.y, p.x) / TAU + TIME * spin + twist * z) * seg;
  float ring = floor(v);
  float checker = mod(floor(u) + ring, 2.0);
  vec3 rgb;
  if (usePalette) {
    float count = float(PALETTE_COUNT > 0 ? PALETTE_COUNT : 1);
    vec3 c = PALETTE_COLOR(int(mod(ring, count) + 0.5));
    rgb = checker > 0.5 ? c : c * 0.25;
  } else {
    rgb = checker > 0.5 ? colorA.rgb : colorB.rgb;
  }
  // The far end fades into darkness, which also hides the aliasing where rings get thin.
  rgb *= smoothstep(0.0, 0.3, r);
  gl_FragColor = vec4(rgb, 1.0);
}
