/*{
  "NAME": "Threshold",
  "DESCRIPTION": "Two-tone image: pixels brighter than Level take the light color, the rest the dark color.",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Color", "Stylize"],
  "INPUTS": [
    { "NAME": "inputImage", "TYPE": "image" },
    { "NAME": "level", "LABEL": "Level", "TYPE": "float", "MIN": 0.0, "MAX": 1.0, "DEFAULT": 0.5 },
    { "NAME": "softness", "LABEL": "Softness", "TYPE": "float", "MIN": 0.0, "MAX": 0.25, "DEFAULT": 0.0 },
    { "NAME": "darkColor", "LABEL": "Dark Color", "TYPE": "color", "DEFAULT": [0.0, 0.0, 0.0, 1.0] },
    { "NAME": "lightColor", "LABEL": "Light Color", "TYPE": "color", "DEFAULT": [1.0, 1.0, 1.0, 1.0] },
    { "NAME": "invert", "LABEL": "Swap Colors", "TYPE": "bool", "DEFAULT": false }
  ]
}*/

void main() {
  vec4 c = IMG_THIS_NORM_PIXEL(inputImage);
  float l = dot(c.rgb, vec3(0.2126, 0.7152, 0.0722));
  float t = softness > 0.0001 ? smoothstep(level - softness, level + softness, l) : step(level, l);
  if (invert) t = 1.0 - t;
  gl_FragColor = vec4(mix(darkColor.rgb, lightColor.rgb, t), c.a);
}
