/*{
  "NAME": "Rings",
  "DESCRIPTION": "Concentric rings pulsing outward from a center point, each in the next palette color.",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Pattern", "Palette"],
  "INPUTS": [
    { "NAME": "rings", "LABEL": "Rings", "TYPE": "float", "MIN": 1.0, "MAX": 40.0, "DEFAULT": 6.0 },
    { "NAME": "speed", "LABEL": "Speed (rings/s)", "TYPE": "float", "MIN": -8.0, "MAX": 8.0, "DEFAULT": 0.5 },
    { "NAME": "thickness", "LABEL": "Thickness", "TYPE": "float", "MIN": 0.05, "MAX": 1.0, "DEFAULT": 0.5 },
    { "NAME": "center", "LABEL": "Center", "TYPE": "point2D", "MIN": [0.0, 0.0], "MAX": [1.0, 1.0], "DEFAULT": [0.5, 0.5] },
    { "NAME": "usePalette", "LABEL": "Palette Colors", "TYPE": "bool", "DEFAULT": true },
    { "NAME": "ringColor", "LABEL": "Ring Color", "TYPE": "color", "DEFAULT": [1.0, 1.0, 1.0, 1.0] },
    { "NAME": "background", "LABEL": "Background", "TYPE": "color", "DEFAULT": [0.0, 0.0, 0.0, 1.0] }
  ]
}*/

void main() {
  float aspect = RENDERSIZE.x / RENDERSIZE.y;
  vec2 p = (isf_FragNormCoord - center) * vec2(aspect, 1.0);
  float x = length(p) * rings - TIME * speed;
  float idx = floor(x);
  float f = x - idx;
  float aa = rings / RENDERSIZE.y;
  float cover = smoothstep(0.0, aa, f) * (1.0 - smoothstep(thickness - aa, thickness, f));
  vec3 col = ringColor.rgb;
  if (usePalette) {
    float count = float(PALETTE_COUNT > 0 ? PALETTE_COUNT : 1);
    col = PALETTE_COLOR(int(mod(idx, count) + 0.5));
  }
  gl_FragColor = vec4(mix(background.rgb, col, cover), 1.0);
}
