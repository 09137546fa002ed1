/*{
  "NAME": "Solid Color",
  "DESCRIPTION": "One flat color over the whole frame, optionally breathing in brightness.",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Pattern"],
  "INPUTS": [
    { "NAME": "color", "LABEL": "Color", "TYPE": "color", "DEFAULT": [0.0, 0.6, 1.0, 1.0] },
    { "NAME": "pulse", "LABEL": "Pulse Depth", "TYPE": "float", "MIN": 0.0, "MAX": 1.0, "DEFAULT": 0.0 },
    { "NAME": "pulseRate", "LABEL": "Pulse Rate (Hz)", "TYPE": "float", "MIN": 0.05, "MAX": 10.0, "DEFAULT": 1.0 }
  ]
}*/

void main() {
  float k = 1.0 - pulse * (0.5 - 0.5 * cos(TIME * pulseRate * 6.2831853));
  gl_FragColor = vec4(color.rgb * k, 1.0);
}
