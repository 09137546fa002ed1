/*{
  "NAME": "Tile",
  "DESCRIPTION": "Repeats the shrunken picture in a grid; Mirror flips every other tile for seamless joins.",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Geometry"],
  "INPUTS": [
    { "NAME": "inputImage", "TYPE": "image" },
    { "NAME": "count", "LABEL": "Tiles Across", "TYPE": "float", "MIN": 1.0, "MAX": 16.0, "DEFAULT": 2.0 },
    { "NAME": "mirrorTiles", "LABEL": "Mirror", "TYPE": "bool", "DEFAULT": false },
    { "NAME": "scroll", "LABEL": "Scroll (tiles/s)", "TYPE": "point2D", "MIN": [-4.0, -4.0], "MAX": [4.0, 4.0], "DEFAULT": [0.0, 0.0] }
  ]
}*/

void main() {
  vec2 t = isf_FragNormCoord * count + scroll * TIME;
  vec2 uv = fract(t);
  if (mirrorTiles) {
    vec2 odd = mod(floor(t), 2.0);
    uv = mix(uv, 1.0 - uv, odd);
  }
  gl_FragColor = IMG_NORM_PIXEL(inputImage, uv);
}
