/*{
  "NAME": "Mirror",
  "DESCRIPTION": "Reflects one half of the picture onto the other half.",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Geometry"],
  "INPUTS": [
    { "NAME": "inputImage", "TYPE": "image" },
    { "NAME": "mode", "LABEL": "Direction", "TYPE": "long", "VALUES": [0, 1, 2, 3], "LABELS": ["Left onto Right", "Right onto Left", "Top onto Bottom", "Bottom onto Top"], "DEFAULT": 0 }
  ]
}*/

void main() {
  vec2 uv = isf_FragNormCoord;
  if (mode == 0 && uv.x > 0.5) uv.x = 1.0 - uv.x;
  if (mode == 1 && uv.x < 0.5) uv.x = 1.0 - uv.x;
  // y is up inside GL: the top of the picture is uv.y near 1.
  if (mode == 2 && uv.y < 0.5) uv.y = 1.0 - uv.y;
  if (mode == 3 && uv.y > 0.5) uv.y = 1.0 - uv.y;
  gl_FragColor = IMG_NORM_PIXEL(inputImage, uv);
}
