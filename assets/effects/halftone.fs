/*{
  "NAME": "Halftone",
  "DESCRIPTION": "Print-style dot screen: dot size follows brightness, on a rotated grid; colored dots on black or black ink on white.",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Stylize", "Retro"],
  "INPUTS": [
    { "NAME": "inputImage", "TYPE": "image" },
    { "NAME": "cell", "LABEL": "Dot Spacing (pixels)", "TYPE": "float", "MIN": 3.0, "MAX": 64.0, "DEFAULT": 10.0 },
    { "NAME": "angle", "LABEL": "Screen Angle (degrees)", "TYPE": "float", "MIN": 0.0, "MAX": 90.0, "DEFAULT": 45.0 },
    { "NAME": "mode", "LABEL": "Style", "TYPE": "long", "VALUES": [0, 1], "LABELS": ["Color Dots", "Ink on Paper"], "DEFAULT": 0 }
  ]
}*/

void main() {
  float a = radians(angle);
  mat2 rot = mat2(cos(a), sin(a), -sin(a), cos(a));
  mat2 back = mat2(cos(a), -sin(a), sin(a), cos(a));
  vec2 q = rot * gl_FragCoord.xy / cell;
  vec2 centerPx = back * ((floor(q) + 0.5) * cell);
  vec2 suv = clamp(centerPx / RENDERSIZE, 0.0, 1.0);
  vec4 s = IMG_NORM_PIXEL(inputImage, suv);
  float l = dot(s.rgb, vec3(0.2126, 0.7152, 0.0722));
  float d = length(fract(q) - 0.5) * cell;
  // 0.85 cell at full tone covers the whole cell (its half diagonal is 0.707 cell).
  float ink = mode == 1 ? 1.0 - l : l;
  float r = sqrt(clamp(ink, 0.0, 1.0)) * cell * 0.85;
  float cover = 1.0 - smoothstep(r - 0.5, r + 0.5, d);
  if (ink < 0.002) cover = 0.0;
  vec3 rgb = mode == 1 ? vec3(1.0 - cover) : s.rgb * cover;
  gl_FragColor = vec4(clamp(rgb, 0.0, 1.0), IMG_THIS_NORM_PIXEL(inputImage).a);
}
