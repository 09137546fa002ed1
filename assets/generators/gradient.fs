/*{
  "NAME": "Gradient",
  "DESCRIPTION": "Two-color gradient: linear at any angle, radial from the center, or mirrored; Drift scrolls it.",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Pattern"],
  "INPUTS": [
    { "NAME": "colorA", "LABEL": "Start Color", "TYPE": "color", "DEFAULT": [1.0, 0.0, 0.35, 1.0] },
    { "NAME": "colorB", "LABEL": "End Color", "TYPE": "color", "DEFAULT": [0.0, 0.65, 1.0, 1.0] },
    { "NAME": "angle", "LABEL": "Angle (degrees)", "TYPE": "float", "MIN": -180.0, "MAX": 180.0, "DEFAULT": 0.0 },
    { "NAME": "mode", "LABEL": "Shape", "TYPE": "long", "VALUES": [0, 1, 2], "LABELS": ["Linear", "Radial", "Mirrored"], "DEFAULT": 0 },
    { "NAME": "drift", "LABEL": "Drift (cycles/s)", "TYPE": "float", "MIN": -2.0, "MAX": 2.0, "DEFAULT": 0.0 }
  ]
}*/

void main() {
  vec2 uv = isf_FragNormCoord;
  float aspect = RENDERSIZE.x / RENDERSIZE.y;
  float t;
  if (mode == 1) {
    // 0 at the center, 1 at the middle of the shorter edges' corners.
    t = length((uv - 0.5) * vec2(aspect, 1.0)) / (0.5 * length(vec2(aspect, 1.0)));
  } else {
    float a = radians(angle);
    vec2 dir = vec2(cos(a), sin(a));
    // Scaled so the gradient spans exactly the frame along its direction.
    float span = abs(dir.x) + abs(dir.y);
    t = 0.5 + dot(uv - 0.5, dir) / span;
  }
  if (drift != 0.0) {
    // Drifting wraps smoothly by running A to B to A.
    t = t + TIME * drift;
    t = 1.0 - abs(mod(t, 2.0) - 1.0);
  }
  if (mode == 2) t = 1.0 - abs(2.0 * t - 1.0);
  t = clamp(t, 0.0, 1.0);
  gl_FragColor = vec4(mix(colorA.rgb, colorB.rgb, t), 1.0);
}
