/*{
  "NAME": "Dip to Black",
  "DESCRIPTION": "Program fades to black over the first half, preview fades up from black over the second.",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Transition"],
  "INPUTS": [
    { "NAME": "startImage", "TYPE": "image" },
    { "NAME": "endImage", "TYPE": "image" },
    { "NAME": "progress", "TYPE": "float", "MIN": 0.0, "MAX": 1.0, "DEFAULT": 0.0 }
  ]
}*/

void main() {
  vec4 a = IMG_NORM_PIXEL(startImage, isf_FragNormCoord);
  vec4 b = IMG_NORM_PIXEL(endImage, isf_FragNormCoord);
  vec3 c = progress < 0.5 ? a.rgb * (1.0 - 2.0 * progress) : b.rgb * (2.0 * progress - 1.0);
  gl_FragColor = vec4(c, 1.0);
}
