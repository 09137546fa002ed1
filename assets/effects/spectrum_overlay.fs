/*{
  "NAME": "Spectrum Overlay",
  "DESCRIPTION": "Spectrum bars over the picture along the bottom edge, in palette colors or one color, low notes on the left.",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Audio", "Overlay", "Palette"],
  "INPUTS": [
    { "NAME": "inputImage", "TYPE": "image" },
    { "NAME": "spectrum", "TYPE": "audioFFT", "MAX": 48 },
    { "NAME": "height", "LABEL": "Height", "TYPE": "float", "MIN": 0.05, "MAX": 1.0, "DEFAULT": 0.35 },
    { "NAME": "opacity", "LABEL": "Opacity", "TYPE": "float", "MIN": 0.0, "MAX": 1.0, "DEFAULT": 0.85 },
    { "NAME": "gap", "LABEL": "Gap", "TYPE": "float", "MIN": 0.0, "MAX": 0.8, "DEFAULT": 0.2 },
    { "NAME": "usePalette", "LABEL": "Palette Colors", "TYPE": "bool", "DEFAULT": true },
    { "NAME": "barColor", "LABEL": "Bar Color", "TYPE": "color", "DEFAULT": [0.2, 1.0, 0.6, 1.0] }
  ]
}*/

void main() {
  vec4 c = IMG_THIS_PIXEL(inputImage);
  vec2 uv = isf_FragNormCoord;
  float bars = IMG_SIZE(spectrum).x;
  float i = floor(uv.x * bars);
  // Low bins hold most of the energy of music: a square root lifts the quieter high bars into view.
  float v = sqrt(IMG_NORM_PIXEL(spectrum, vec2((i + 0.5) / bars, 0.5)).r);
  float inBar = step(gap * 0.5, fract(uv.x * bars)) * step(fract(uv.x * bars), 1.0 - gap * 0.5);
  float lit = inBar * step(uv.y, v * height);
  vec3 col = barColor.rgb;
  if (usePalette) col = PALETTE_COLOR(int(mod(i, float(PALETTE_COUNT))));
  gl_FragColor = vec4(mix(c.rgb, col, lit * opacity), c.a);
}
