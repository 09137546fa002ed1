/*{
  "NAME": "Rotate / Zoom",
  "DESCRIPTION": "Rotates and scales the picture around its center; Spin keeps it turning. Edges repeat, mirror, clamp or go black.",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Geometry"],
  "INPUTS": [
    { "NAME": "inputImage", "TYPE": "image" },
    { "NAME": "angle", "LABEL": "Angle (degrees)", "TYPE": "float", "MIN": -180.0, "MAX": 180.0, "DEFAULT": 0.0 },
    { "NAME": "zoom", "LABEL": "Zoom", "TYPE": "float", "MIN": 0.1, "MAX": 8.0, "DEFAULT": 1.2 },
    { "NAME": "spin", "LABEL": "Spin (degrees/s)", "TYPE": "float", "MIN": -180.0, "MAX": 180.0, "DEFAULT": 0.0 },
    { "NAME": "edge", "LABEL": "Edges", "TYPE": "long", "VALUES": [0, 1, 2, 3], "LABELS": ["Mirror", "Repeat", "Clamp", "Black"], "DEFAULT": 0 }
  ]
}*/

void main() {
  float a = radians(angle + spin * TIME);
  vec2 p = (isf_FragNormCoord - 0.5) * RENDERSIZE;
  float c = cos(a);
  float s = sin(a);
  // Inverse mapping: the sample point is the output point turned back by the angle.
  p = vec2(c * p.x + s * p.y, -s * p.x + c * p.y) / zoom;
  vec2 uv = p / RENDERSIZE + 0.5;
  bool outside = uv.x < 0.0 || uv.x > 1.0 || uv.y < 0.0 || uv.y > 1.0;
  if (edge == 0) uv = 1.0 - abs(mod(uv, 2.0) - 1.0);
  else if (edge == 1) uv = fract(uv);
  else uv = clamp(uv, 0.0, 1.0);
  vec4 col = IMG_NORM_PIXEL(inputImage, uv);
  if (edge == 3 && outside) col = vec4(0.0, 0.0, 0.0, 1.0);
  gl_FragColor = col;
}
