/*{
  "NAME": "Palette Sweep",
  "DESCRIPTION": "Steps through the colors of the current palette over time, holding each and crossfading to the next; Spread fans them out across the screen.",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Palette", "Pattern"],
  "INPUTS": [
    { "NAME": "speed", "LABEL": "Speed (colors/s)", "TYPE": "float", "MIN": 0.0, "MAX": 8.0, "DEFAULT": 0.5 },
    { "NAME": "blend", "LABEL": "Crossfade", "TYPE": "float", "MIN": 0.0, "MAX": 1.0, "DEFAULT": 0.25 },
    { "NAME": "spread", "LABEL": "Spread", "TYPE": "float", "MIN": 0.0, "MAX": 1.0, "DEFAULT": 0.0 },
    { "NAME": "angle", "LABEL": "Spread Angle (degrees)", "TYPE": "float", "MIN": -180.0, "MAX": 180.0, "DEFAULT": 0.0 }
  ]
}*/

void main() {
  float count = float(PALETTE_COUNT > 0 ? PALETTE_COUNT : 1);
  float a = radians(angle);
  float along = dot(isf_FragNormCoord - 0.5, vec2(cos(a), sin(a))) + 0.5;
  float pos = TIME * speed + along * spread * count;
  float i0 = mod(floor(pos), count);
  float i1 = mod(i0 + 1.0, count);
  float f = fract(pos);
  float t = blend > 0.0001 ? smoothstep(1.0 - blend, 1.0, f) : 0.0;
  gl_FragColor = vec4(mix(PALETTE_COLOR(int(i0 + 0.5)), PALETTE_COLOR(int(i1 + 0.5)), t), 1.0);
}
