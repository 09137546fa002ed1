/*{
  "NAME": "Saturation",
  "DESCRIPTION": "Pushes colors away from (above 1) or toward (below 1) their Rec. 709 luminance; 0 is black and white.",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Color"],
  "INPUTS": [
    { "NAME": "inputImage", "TYPE": "image" },
    { "NAME": "amount", "LABEL": "Saturation", "TYPE": "float", "MIN": 0.0, "MAX": 3.0, "DEFAULT": 1.5 }
  ]
}*/

void main() {
  vec4 c = IMG_THIS_NORM_PIXEL(inputImage);
  float l = dot(c.rgb, vec3(0.2126, 0.7152, 0.0722));
  gl_FragColor = vec4(clamp(mix(vec3(l), c.rgb, amount), 0.0, 1.0), c.a);
}
