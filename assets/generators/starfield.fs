/*{
  "NAME": "Starfield",
  "DESCRIPTION": "Flight through a field of twinkling stars in six depth layers.",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Pattern", "Space"],
  "INPUTS": [
    { "NAME": "speed", "LABEL": "Speed", "TYPE": "float", "MIN": -4.0, "MAX": 8.0, "DEFAULT": 1.0 },
    { "NAME": "density", "LABEL": "Density", "TYPE": "float", "MIN": 4.0, "MAX": 60.0, "DEFAULT": 18.0 },
    { "NAME": "starSize", "LABEL": "Star Size (pixels)", "TYPE": "float", "MIN": 0.5, "MAX": 6.0, "DEFAULT": 1.5 },
    { "NAME": "tint", "LABEL": "Tint", "TYPE": "color", "DEFAULT": [0.85, 0.92, 1.0, 1.0] },
    { "NAME": "twinkle", "LABEL": "Twinkle", "TYPE": "float", "MIN": 0.0, "MAX": 1.0, "DEFAULT": 0.3 }
  ]
}*/

float starHash(vec2 p) {
  return fract(sin(dot(p, vec2(41.27, 289.13))) * 15731.743);
}

void main() {
  float aspect = RENDERSIZE.x / RENDERSIZE.y;
  vec2 p = (isf_FragNormCoord - 0.5) * vec2(aspect, 1.0);
  vec3 rgb = vec3(0.0);
  for (int l = 0; l < 6; l++) {
    float fl = float(l);
    // z runs from 1 (far) toward 0 (near) and wraps; screen = world / z, so stars stream outward.
    float z = fract(fl / 6.0 - TIME * speed * 0.05);
    float zz = max(z, 0.02);
    vec2 g = p * zz * density + vec2(fl * 17.31, fl * 5.77);
    vec2 cell = floor(g);
    float h = starHash(cell + fl * 13.1);
    if (h > 0.55) continue;
    vec2 pos = vec2(starHash(cell + 1.3), starHash(cell + 7.7)) - 0.5;
    float cellPx = RENDERSIZE.y / (zz * density);
    float dpx = length(fract(g) - 0.5 - pos * 0.7) * cellPx;
    float rad = starSize * (0.35 + 1.65 * (1.0 - z));
    float b = 1.0 - smoothstep(rad - 0.6, rad + 0.6, dpx);
    float fade = smoothstep(1.0, 0.75, z) * smoothstep(0.0, 0.06, z);
    float tw = 1.0 - twinkle * (0.5 + 0.5 * sin(TIME * 5.0 + h * 97.0));
    rgb += tint.rgb * b * fade * tw * (0.55 + 0.8 * h);
  }
  gl_FragColor = vec4(clamp(rgb, 0.0, 1.0), 1.0);
}
