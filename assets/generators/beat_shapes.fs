/*{
  "NAME": "Beat Shapes",
  "DESCRIPTION": "Rings of polygons that jump on every beat, turn with the bar and take the next palette color each beat; bass swells them.",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Audio", "Pattern", "Palette"],
  "INPUTS": [
    { "NAME": "sides", "LABEL": "Sides", "TYPE": "long", "VALUES": [3, 4, 5, 6, 8], "LABELS": ["Triangle", "Square", "Pentagon", "Hexagon", "Octagon"], "DEFAULT": 6 },
    { "NAME": "rings", "LABEL": "Rings", "TYPE": "float", "MIN": 1.0, "MAX": 8.0, "DEFAULT": 4.0 },
    { "NAME": "jump", "LABEL": "Beat Jump", "TYPE": "float", "MIN": 0.0, "MAX": 1.0, "DEFAULT": 0.35 },
    { "NAME": "swell", "LABEL": "Bass Swell", "TYPE": "float", "MIN": 0.0, "MAX": 1.0, "DEFAULT": 0.3 },
    { "NAME": "thickness", "LABEL": "Thickness", "TYPE": "float", "MIN": 0.01, "MAX": 0.2, "DEFAULT": 0.05 },
    { "NAME": "background", "LABEL": "Background", "TYPE": "color", "DEFAULT": [0.0, 0.0, 0.0, 1.0] }
  ]
}*/

const float PI = 3.14159265;

// Distance to a regular polygon with n sides and apothem r, centred at the origin.
float polygon(vec2 p, float n, float r) {
  float a = atan(p.y, p.x);
  float seg = 2.0 * PI / n;
  float d = cos(floor(0.5 + a / seg) * seg - a) * length(p);
  return d - r;
}

void main() {
  vec2 p = (isf_FragNormCoord - 0.5) * vec2(RENDERSIZE.x / RENDERSIZE.y, 1.0);
  // A kick at the start of each beat that settles by its end, plus a swell with the bass.
  float kick = 1.0 + jump * pow(1.0 - BEAT_PHASE, 3.0) + swell * AUDIO_BASS;
  float turn = BAR_PHASE * 2.0 * PI / float(sides);
  vec2 q = mat2(cos(turn), sin(turn), -sin(turn), cos(turn)) * p;
  vec3 col = background.rgb;
  for (int k = 0; k < 8; k++) {
    if (float(k) >= rings) break;
    float r = (0.08 + 0.42 * (float(k) + 1.0) / rings) * kick * 0.6;
    float d = abs(polygon(q, float(sides), r));
    float edge = 1.0 - smoothstep(thickness * 0.5, thickness * 0.5 + 0.004, d);
    // Each beat moves every ring one palette color on.
    int idx = int(mod(BEAT_COUNT + float(k), float(PALETTE_COUNT)));
    col = mix(col, PALETTE_COLOR(idx), edge);
  }
  gl_FragColor = vec4(col, 1.0);
}
