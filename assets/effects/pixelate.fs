/*{
  "NAME": "Pixelate",
  "DESCRIPTION": "Mosaic of square cells, each filled with the color at its center.",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Stylize"],
  "INPUTS": [
    { "NAME": "inputImage", "TYPE": "image" },
    { "NAME": "size", "LABEL": "Cell Size (pixels)", "TYPE": "float", "MIN": 1.0, "MAX": 128.0, "DEFAULT": 8.0 }
  ]
}*/

void main() {
  float s = max(floor(size), 1.0);
  vec2 cell = floor(gl_FragCoord.xy / s);
  vec2 center = min((cell + 0.5) * s, RENDERSIZE - 0.5);
  gl_FragColor = IMG_NORM_PIXEL(inputImage, center / RENDERSIZE);
}
