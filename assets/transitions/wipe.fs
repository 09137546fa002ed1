/*{
  "NAME": "Wipe",
  "DESCRIPTION": "The preview wipes in from the left with a soft edge.",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Transition"],
  "INPUTS": [
    { "NAME": "startImage", "TYPE": "image" },
    { "NAME": "endImage", "TYPE": "image" },
    { "NAME": "progress", "TYPE": "float", "MIN": 0.0, "MAX": 1.0, "DEFAULT": 0.0 },
    { "NAME": "softness", "LABEL": "Edge Softness", "TYPE": "float", "MIN": 0.0, "MAX": 0.5, "DEFAULT": 0.02 }
  ]
}*/

void main() {
  float edge = progress * (1.0 + softness);
  float k = 1.0 - smoothstep(edge - softness, edge, isf_FragNormCoord.x);
  gl_FragColor = mix(IMG_NORM_PIXEL(startImage, isf_FragNormCoord), IMG_NORM_PIXEL(endImage, isf_FragNormCoord), k);
}
