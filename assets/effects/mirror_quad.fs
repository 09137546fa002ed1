/*{
  "NAME": "Mirror Quad",
  "DESCRIPTION": "Reflects one quarter of the picture into all four corners.",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Geometry"],
  "INPUTS": [
    { "NAME": "inputImage", "TYPE": "image" },
    { "NAME": "quadrant", "LABEL": "Source Quarter", "TYPE": "long", "VALUES": [0, 1, 2, 3], "LABELS": ["Top Left", "Top Right", "Bottom Left", "Bottom Right"], "DEFAULT": 0 }
  ]
}*/

void main() {
  vec2 uv = isf_FragNormCoord;
  bool right = quadrant == 1 || quadrant == 3;
  bool bottom = quadrant == 2 || quadrant == 3;
  if (right != (uv.x > 0.5)) uv.x = 1.0 - uv.x;
  if (bottom != (uv.y < 0.5)) uv.y = 1.0 - uv.y;
  gl_FragColor = IMG_NORM_PIXEL(inputImage, uv);
}
