/*{
  "NAME": "Vignette",
  "DESCRIPTION": "Darkens (or tints) the corners toward a color, keeping the middle untouched.",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Stylize", "Film"],
  "INPUTS": [
    { "NAME": "inputImage", "TYPE": "image" },
    { "NAME": "radius", "LABEL": "Radius", "TYPE": "float", "MIN": 0.1, "MAX": 1.5, "DEFAULT": 0.9 },
    { "NAME": "softness", "LABEL": "Softness", "TYPE": "float", "MIN": 0.01, "MAX": 1.0, "DEFAULT": 0.6 },
    { "NAME": "amount", "LABEL": "Amount", "TYPE": "float", "MIN": 0.0, "MAX": 1.0, "DEFAULT": 0.85 },
    { "NAME": "edgeColor", "LABEL": "Color", "TYPE": "color", "DEFAULT": [0.0, 0.0, 0.0, 1.0] }
  ]
}*/

void main() {
  vec4 c = IMG_THIS_NORM_PIXEL(inputImage);
  // 0 at the center, 1 in the corners, whatever the aspect ratio.
  float d = length(isf_FragNormCoord - 0.5) * 1.4142136;
  float keep = 1.0 - smoothstep(radius - softness, radius, d);
  gl_FragColor = vec4(mix(edgeColor.rgb, c.rgb, mix(1.0, keep, amount)), c.a);
}
