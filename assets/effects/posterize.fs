/*{
  "NAME": "Posterize",
  "DESCRIPTION": "Reduces every channel to a few flat steps for a screen-print look.",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Color", "Stylize"],
  "INPUTS": [
    { "NAME": "inputImage", "TYPE": "image" },
    { "NAME": "levels", "LABEL": "Steps", "TYPE": "float", "MIN": 2.0, "MAX": 16.0, "DEFAULT": 4.0 }
  ]
}*/

void main() {
  vec4 c = IMG_THIS_NORM_PIXEL(inputImage);
  float n = floor(levels);
  vec3 q = min(floor(c.rgb * n), n - 1.0) / (n - 1.0);
  gl_FragColor = vec4(q, c.a);
}
