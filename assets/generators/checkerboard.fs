/*{
  "NAME": "Checkerboard",
  "DESCRIPTION": "Anti-aliased checkerboard of square cells that can turn and scroll.",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Pattern", "Test Pattern"],
  "INPUTS": [
    { "NAME": "cells", "LABEL": "Cells Across", "TYPE": "float", "MIN": 2.0, "MAX": 64.0, "DEFAULT": 8.0 },
    { "NAME": "colorA", "LABEL": "Color A", "TYPE": "color", "DEFAULT": [1.0, 1.0, 1.0, 1.0] },
    { "NAME": "colorB", "LABEL": "Color B", "TYPE": "color", "DEFAULT": [0.0, 0.0, 0.0, 1.0] },
    { "NAME": "angle", "LABEL": "Angle (degrees)", "TYPE": "float", "MIN": -180.0, "MAX": 180.0, "DEFAULT": 0.0 },
    { "NAME": "scroll", "LABEL": "Scroll (cells/s)", "TYPE": "point2D", "MIN": [-8.0, -8.0], "MAX": [8.0, 8.0], "DEFAULT": [0.0, 0.0] }
  ]
}*/

// +1 on even cells, -1 on odd ones, ramping through 0 over one pixel at each cell edge.
float squareWave(float x, float cellPx) {
  float s = mod(floor(x), 2.0) < 0.5 ? 1.0 : -1.0;
  float edge = abs(x - floor(x + 0.5));
  return s * clamp(edge * cellPx * 2.0, 0.0, 1.0);
}

void main() {
  float cellPx = RENDERSIZE.x / cells;
  vec2 p = (gl_FragCoord.xy - 0.5 * RENDERSIZE) / cellPx;
  float a = radians(angle);
  p = vec2(cos(a) * p.x + sin(a) * p.y, -sin(a) * p.x + cos(a) * p.y);
  p += scroll * TIME;
  float k = 0.5 + 0.5 * squareWave(p.x, cellPx) * squareWave(p.y, cellPx);
  gl_FragColor = vec4(mix(colorB.rgb, colorA.rgb, k), 1.0);
}
