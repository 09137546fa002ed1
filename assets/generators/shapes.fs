/*{
  "NAME": "Shapes",
  "DESCRIPTION": "Up to eight spinning shapes (circles, squares, triangles, rings or a mix) gliding on looping paths, in palette colors.",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Pattern", "Palette"],
  "INPUTS": [
    { "NAME": "shape", "LABEL": "Shape", "TYPE": "long", "VALUES": [0, 1, 2, 3, 4], "LABELS": ["Circle", "Square", "Triangle", "Ring", "Mixed"], "DEFAULT": 4 },
    { "NAME": "count", "LABEL": "Count", "TYPE": "float", "MIN": 1.0, "MAX": 8.0, "DEFAULT": 5.0 },
    { "NAME": "size", "LABEL": "Size", "TYPE": "float", "MIN": 0.02, "MAX": 0.5, "DEFAULT": 0.12 },
    { "NAME": "speed", "LABEL": "Speed", "TYPE": "float", "MIN": 0.0, "MAX": 4.0, "DEFAULT": 0.5 },
    { "NAME": "usePalette", "LABEL": "Palette Colors", "TYPE": "bool", "DEFAULT": true },
    { "NAME": "fillColor", "LABEL": "Fill Color", "TYPE": "color", "DEFAULT": [1.0, 1.0, 1.0, 1.0] },
    { "NAME": "background", "LABEL": "Background", "TYPE": "color", "DEFAULT": [0.0, 0.0, 0.0, 1.0] }
  ]
}*/

// Signed distances (negative inside); s is the shape's radius.
float shapeDistance(int kind, vec2 q, float s) {
  if (kind == 1) return max(abs(q.x), abs(q.y)) - s * 0.85;
  if (kind == 2) return max(abs(q.x) * 0.8660254 + q.y * 0.5, -q.y) - s * 0.5;
  if (kind == 3) return abs(length(q) - s) - s * 0.22;
  return length(q) - s;
}

void main() {
  float aspect = RENDERSIZE.x / RENDERSIZE.y;
  vec2 p = isf_FragNormCoord * vec2(aspect, 1.0);
  float t = TIME * speed;
  float aa = 1.5 / RENDERSIZE.y;
  int colors = PALETTE_COUNT > 0 ? PALETTE_COUNT : 1;
  vec3 rgb = background.rgb;
  for (int i = 0; i < 8; i++) {
    float fi = float(i);
    if (fi >= floor(count)) break;
    vec2 c = vec2(aspect * (0.5 + 0.38 * sin(t * (0.7 + 0.13 * fi) + fi * 1.7)),
                  0.5 + 0.36 * sin(t * (0.9 + 0.11 * fi) + fi * 2.9));
    float a = t * (0.6 + 0.15 * fi) * (mod(fi, 2.0) < 0.5 ? 1.0 : -1.0);
    vec2 q = p - c;
    q = vec2(cos(a) * q.x + sin(a) * q.y, -sin(a) * q.x + cos(a) * q.y);
    int kind = shape;
    if (shape == 4) kind = i - (i / 4) * 4;
    float s = size * (0.8 + 0.4 * fract(fi * 0.618));
    float cover = 1.0 - smoothstep(-aa, aa, shapeDistance(kind, q, s));
    vec3 col = usePalette ? PALETTE_COLOR(i - (i / colors) * colors) : fillColor.rgb;
    rgb = mix(rgb, col, cover);
  }
  gl_FragColor = vec4(rgb, 1.0);
}
