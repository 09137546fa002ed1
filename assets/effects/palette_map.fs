/*{
  "NAME": "Palette Map",
  "DESCRIPTION": "Replaces each pixel by a color of the current palette chosen by its brightness (dark to first color, bright to last).",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Color", "Palette"],
  "INPUTS": [
    { "NAME": "inputImage", "TYPE": "image" },
    { "NAME": "mode", "LABEL": "Mode", "TYPE": "long", "VALUES": [0, 1], "LABELS": ["Steps", "Gradient"], "DEFAULT": 0 },
    { "NAME": "offset", "LABEL": "Offset", "TYPE": "float", "MIN": 0.0, "MAX": 1.0, "DEFAULT": 0.0 },
    { "NAME": "speed", "LABEL": "Cycle Speed (colors/s)", "TYPE": "float", "MIN": 0.0, "MAX": 8.0, "DEFAULT": 0.0 },
    { "NAME": "amount", "LABEL": "Amount", "TYPE": "float", "MIN": 0.0, "MAX": 1.0, "DEFAULT": 1.0 }
  ]
}*/

// Wraps a (possibly fractional) color position into [0, count).
float wrapPos(float p, float count) {
  return mod(p, count);
}

void main() {
  vec4 c = IMG_THIS_NORM_PIXEL(inputImage);
  float count = float(PALETTE_COUNT > 0 ? PALETTE_COUNT : 1);
  float l = clamp(dot(c.rgb, vec3(0.2126, 0.7152, 0.0722)), 0.0, 1.0);
  float shift = offset * count + TIME * speed;
  vec3 mapped;
  if (mode == 1) {
    float p = wrapPos(l * (count - 1.0) + shift, count);
    float i0 = floor(p);
    float i1 = mod(i0 + 1.0, count);
    if (shift == 0.0) i1 = min(i0 + 1.0, count - 1.0);
    mapped = mix(PALETTE_COLOR(int(i0 + 0.5)), PALETTE_COLOR(int(i1 + 0.5)), p - i0);
  } else {
    float i = min(floor(l * count), count - 1.0);
    mapped = PALETTE_COLOR(int(wrapPos(i + floor(shift), count) + 0.5));
  }
  gl_FragColor = vec4(mix(c.rgb, mapped, amount), c.a);
}
