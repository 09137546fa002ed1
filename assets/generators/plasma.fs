/*{
  "NAME": "Plasma",
  "DESCRIPTION": "Classic demoscene plasma: interfering sine fields mapped to a rainbow or to the current palette.",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Pattern", "Palette"],
  "INPUTS": [
    { "NAME": "speed", "LABEL": "Speed", "TYPE": "float", "MIN": 0.0, "MAX": 4.0, "DEFAULT": 0.6 },
    { "NAME": "scale", "LABEL": "Scale", "TYPE": "float", "MIN": 0.5, "MAX": 20.0, "DEFAULT": 4.0 },
    { "NAME": "colorShift", "LABEL": "Color Shift", "TYPE": "float", "MIN": 0.0, "MAX": 1.0, "DEFAULT": 0.0 },
    { "NAME": "contrast", "LABEL": "Color Spread", "TYPE": "float", "MIN": 0.2, "MAX": 4.0, "DEFAULT": 1.0 },
    { "NAME": "usePalette", "LABEL": "Palette Colors", "TYPE": "bool", "DEFAULT": false }
  ]
}*/

const float TAU = 6.2831853;

void main() {
  float aspect = RENDERSIZE.x / RENDERSIZE.y;
  vec2 p = (isf_FragNormCoord - 0.5) * vec2(aspect, 1.0) * scale;
  float t = TIME * speed;
  float v = sin(p.x + t);
  v += sin(p.y * 0.8 - t * 1.3);
  v += sin((p.x + p.y) * 0.6 + t * 0.7);
  vec2 orbit = p + vec2(2.0 * sin(t * 0.5), 2.0 * cos(t * 0.37));
  v += sin(length(orbit) * 1.3 - t);
  v *= 0.25;
  vec3 rgb;
  if (usePalette) {
    float count = float(PALETTE_COUNT > 0 ? PALETTE_COUNT : 1);
    float pos = mod((v * 0.5 * contrast + 0.5 + colorShift) * count, count);
    float i0 = floor(pos);
    rgb = mix(PALETTE_COLOR(int(i0 + 0.5)), PALETTE_COLOR(int(mod(i0 + 1.0, count) + 0.5)), smoothstep(0.0, 1.0, pos - i0));
  } else {
    rgb = 0.5 + 0.5 * cos(TAU * (v * 0.5 * contrast + colorShift + vec3(0.0, 0.33, 0.67)));
  }
  gl_FragColor = vec4(rgb, 1.0);
}
