/*{
  "NAME": "Levels",
  "DESCRIPTION": "Remaps the input range [black, white] to the output range, with a gamma curve in between.",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Color"],
  "INPUTS": [
    { "NAME": "inputImage", "TYPE": "image" },
    { "NAME": "inBlack", "LABEL": "Input Black", "TYPE": "float", "MIN": 0.0, "MAX": 1.0, "DEFAULT": 0.06 },
    { "NAME": "inWhite", "LABEL": "Input White", "TYPE": "float", "MIN": 0.0, "MAX": 1.0, "DEFAULT": 0.94 },
    { "NAME": "gamma", "LABEL": "Gamma", "TYPE": "float", "MIN": 0.2, "MAX": 5.0, "DEFAULT": 1.0 },
    { "NAME": "outBlack", "LABEL": "Output Black", "TYPE": "float", "MIN": 0.0, "MAX": 1.0, "DEFAULT": 0.0 },
    { "NAME": "outWhite", "LABEL": "Output White", "TYPE": "float", "MIN": 0.0, "MAX": 1.0, "DEFAULT": 1.0 }
  ]
}*/

void main() {
  vec4 c = IMG_THIS_NORM_PIXEL(inputImage);
  vec3 t = clamp((c.rgb - inBlack) / max(inWhite - inBlack, 0.001), 0.0, 1.0);
  t = pow(t, vec3(1.0 / gamma));
  gl_FragColor = vec4(mix(vec3(outBlack), vec3(outWhite), t), c.a);
}
