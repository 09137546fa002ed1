/*{
  "NAME": "Color Tint",
  "DESCRIPTION": "Tints the picture with one color: Colorize keeps only brightness, Multiply and Screen blend the color in.",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Color"],
  "INPUTS": [
    { "NAME": "inputImage", "TYPE": "image" },
    { "NAME": "tint", "LABEL": "Color", "TYPE": "color", "DEFAULT": [1.0, 0.6, 0.25, 1.0] },
    { "NAME": "amount", "LABEL": "Amount", "TYPE": "float", "MIN": 0.0, "MAX": 1.0, "DEFAULT": 0.5 },
    { "NAME": "mode", "LABEL": "Mode", "TYPE": "long", "VALUES": [0, 1, 2], "LABELS": ["Colorize", "Multiply", "Screen"], "DEFAULT": 0 }
  ]
}*/

void main() {
  vec4 c = IMG_THIS_NORM_PIXEL(inputImage);
  vec3 tinted;
  if (mode == 1) tinted = c.rgb * tint.rgb;
  else if (mode == 2) tinted = vec3(1.0) - (vec3(1.0) - c.rgb) * (vec3(1.0) - tint.rgb);
  else tinted = dot(c.rgb, vec3(0.2126, 0.7152, 0.0722)) * tint.rgb;
  gl_FragColor = vec4(mix(c.rgb, tinted, amount), c.a);
}
