/*{
  "NAME": "Brightness / Contrast",
  "DESCRIPTION": "Scales contrast around mid grey, then adds brightness.",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Color"],
  "INPUTS": [
    { "NAME": "inputImage", "TYPE": "image" },
    { "NAME": "brightness", "LABEL": "Brightness", "TYPE": "float", "MIN": -1.0, "MAX": 1.0, "DEFAULT": 0.0 },
    { "NAME": "contrast", "LABEL": "Contrast", "TYPE": "float", "MIN": 0.0, "MAX": 3.0, "DEFAULT": 1.2 }
  ]
}*/

void main() {
  vec4 c = IMG_THIS_NORM_PIXEL(inputImage);
  vec3 rgb = (c.rgb - 0.5) * contrast + 0.5 + brightness;
  gl_FragColor = vec4(clamp(rgb, 0.0, 1.0), c.a);
}
