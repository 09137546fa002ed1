/*{
  "NAME": "Noise",
  "DESCRIPTION": "Drifting fractal value noise (smoke, clouds, marble) in grey, color or palette colors.",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Pattern", "Palette"],
  "INPUTS": [
    { "NAME": "scale", "LABEL": "Scale", "TYPE": "float", "MIN": 0.5, "MAX": 32.0, "DEFAULT": 4.0 },
    { "NAME": "speed", "LABEL": "Speed", "TYPE": "float", "MIN": 0.0, "MAX": 4.0, "DEFAULT": 0.3 },
    { "NAME": "octaves", "LABEL": "Detail", "TYPE": "long", "VALUES": [1, 2, 3, 4, 5, 6], "LABELS": ["1", "2", "3", "4", "5", "6"], "DEFAULT": 4 },
    { "NAME": "contrast", "LABEL": "Contrast", "TYPE": "float", "MIN": 0.2, "MAX": 4.0, "DEFAULT": 1.3 },
    { "NAME": "colorMode", "LABEL": "Colors", "TYPE": "long", "VALUES": [0, 1, 2], "LABELS": ["Grey", "Color", "Palette"], "DEFAULT": 0 }
  ]
}*/

float cellHash(vec2 p) {
  return fract(sin(dot(p, vec2(41.27, 289.13))) * 15731.743);
}

float valueNoise(vec2 p) {
  vec2 i = floor(p);
  vec2 f = fract(p);
  vec2 u = f * f * (3.0 - 2.0 * f);
  float a = cellHash(i);
  float b = cellHash(i + vec2(1.0, 0.0));
  float c = cellHash(i + vec2(0.0, 1.0));
  float d = cellHash(i + vec2(1.0, 1.0));
  return mix(mix(a, b, u.x), mix(c, d, u.x), u.y);
}

float fbm(vec2 p, float t) {
  float sum = 0.0;
  float norm = 0.0;
  float amp = 0.5;
  // Each octave is turned ~37 degrees so the value grid never lines up.
  mat2 turn = mat2(0.8, 0.6, -0.6, 0.8);
  for (int o = 0; o < 6; o++) {
    if (o >= octaves) break;
    sum += amp * valueNoise(p + vec2(t, -0.6 * t));
    norm += amp;
    p = turn * p * 2.03 + vec2(11.7, 3.1);
    amp *= 0.5;
  }
  return sum / norm;
}

void main() {
  float aspect = RENDERSIZE.x / RENDERSIZE.y;
  vec2 p = isf_FragNormCoord * vec2(aspect, 1.0) * scale;
  float t = mod(TIME * speed, 1000.0);
  // A first noise layer bends the coordinates of the second: slow, smoke-like motion.
  vec2 warp = vec2(fbm(p + 5.2, t * 0.5), fbm(p + 1.7, t * 0.5));
  float n = fbm(p + 1.5 * warp, t);
  n = clamp((n - 0.5) * contrast + 0.5, 0.0, 1.0);
  vec3 rgb;
  if (colorMode == 1) {
    rgb = clamp(0.5 + 0.5 * cos(6.2831853 * (n + vec3(0.0, 0.3, 0.6) + warp.x * 0.5)), 0.0, 1.0) * (0.35 + 0.65 * n);
  } else if (colorMode == 2) {
    float count = float(PALETTE_COUNT > 0 ? PALETTE_COUNT : 1);
    float pos = n * (count - 1.0);
    float i0 = floor(pos);
    rgb = mix(PALETTE_COLOR(int(i0 + 0.5)), PALETTE_COLOR(int(min(i0 + 1.0, count - 1.0) + 0.5)), pos - i0);
  } else {
    rgb = vec3(n);
  }
  gl_FragColor = vec4(rgb, 1.0);
}
