/*{
  "NAME": "Kaleidoscope",
  "DESCRIPTION": "Folds the picture into mirrored wedges around a center point.",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Geometry"],
  "INPUTS": [
    { "NAME": "inputImage", "TYPE": "image" },
    { "NAME": "segments", "LABEL": "Segments", "TYPE": "float", "MIN": 2.0, "MAX": 24.0, "DEFAULT": 6.0 },
    { "NAME": "rotation", "LABEL": "Rotation (degrees)", "TYPE": "float", "MIN": -180.0, "MAX": 180.0, "DEFAULT": 0.0 },
    { "NAME": "spin", "LABEL": "Spin (degrees/s)", "TYPE": "float", "MIN": -90.0, "MAX": 90.0, "DEFAULT": 0.0 },
    { "NAME": "zoom", "LABEL": "Zoom", "TYPE": "float", "MIN": 0.25, "MAX": 4.0, "DEFAULT": 1.0 },
    { "NAME": "center", "LABEL": "Center", "TYPE": "point2D", "MIN": [0.0, 0.0], "MAX": [1.0, 1.0], "DEFAULT": [0.5, 0.5] }
  ]
}*/

const float TAU = 6.2831853;

void main() {
  float aspect = RENDERSIZE.x / RENDERSIZE.y;
  vec2 p = (isf_FragNormCoord - center) * vec2(aspect, 1.0);
  float r = length(p) / zoom;
  float seg = TAU / max(floor(segments), 2.0);
  float a = mod(atan(p.y, p.x) + radians(rotation + spin * TIME), seg);
  if (a > 0.5 * seg) a = seg - a;
  vec2 src = vec2(0.5) + vec2(cos(a), sin(a)) * r / vec2(aspect, 1.0);
  // Mirrored repeat keeps zoomed-out views seamless.
  src = 1.0 - abs(mod(src, 2.0) - 1.0);
  gl_FragColor = IMG_NORM_PIXEL(inputImage, src);
}
