/*{
  "NAME": "Fade",
  "DESCRIPTION": "Crossfade: program and preview mixed by progress.",
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
  gl_FragColor = mix(IMG_NORM_PIXEL(startImage, isf_FragNormCoord), IMG_NORM_PIXEL(endImage, isf_FragNormCoord), progress);
}
