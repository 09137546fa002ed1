/*{
  "NAME": "Cut",
  "DESCRIPTION": "Hard cut: a take switches on the next frame; on the T-bar the program shows until the bar reaches the end.",
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
  gl_FragColor = progress < 1.0 ? IMG_NORM_PIXEL(startImage, isf_FragNormCoord) : IMG_NORM_PIXEL(endImage, isf_FragNormCoord);
}
