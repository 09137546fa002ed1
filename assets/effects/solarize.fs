/*{
  "NAME": "Solarize",
  "DESCRIPTION": "Inverts each channel above the threshold, the darkroom Sabattier look.",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Color", "Stylize"],
  "INPUTS": [
    { "NAME": "inputImage", "TYPE": "image" },
    { "NAME": "threshold", "LABEL": "Threshold", "TYPE": "float", "MIN": 0.0, "MAX": 1.0, "DEFAULT": 0.5 }
  ]
}*/

void main() {
  vec4 c = IMG_THIS_NORM_PIXEL(inputImage);
  vec3 above = step(vec3(threshold), c.rgb);
  gl_FragColor = vec4(mix(c.rgb, vec3(1.0) - c.rgb, above), c.a);
}
