/*{
  "NAME": "RGB Split",
  "DESCRIPTION": "Pulls the red and blue channels apart in opposite directions (chromatic aberration); Wobble animates the offset.",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Glitch", "Color"],
  "INPUTS": [
    { "NAME": "inputImage", "TYPE": "image" },
    { "NAME": "amount", "LABEL": "Distance", "TYPE": "float", "MIN": 0.0, "MAX": 0.1, "DEFAULT": 0.012 },
    { "NAME": "angle", "LABEL": "Angle (degrees)", "TYPE": "float", "MIN": -180.0, "MAX": 180.0, "DEFAULT": 0.0 },
    { "NAME": "wobble", "LABEL": "Wobble (Hz)", "TYPE": "float", "MIN": 0.0, "MAX": 10.0, "DEFAULT": 0.0 }
  ]
}*/

void main() {
  vec2 uv = isf_FragNormCoord;
  float a = radians(angle);
  float d = amount;
  if (wobble > 0.0) d *= 0.5 + 0.5 * sin(TIME * wobble * 6.2831853);
  // The offset is a fraction of the width in both directions so the split looks the same at any aspect.
  vec2 off = vec2(cos(a), sin(a)) * d * vec2(1.0, RENDERSIZE.x / RENDERSIZE.y);
  vec4 g = IMG_NORM_PIXEL(inputImage, uv);
  float r = IMG_NORM_PIXEL(inputImage, uv - off).r;
  float b = IMG_NORM_PIXEL(inputImage, uv + off).b;
  gl_FragColor = vec4(r, g.g, b, g.a);
}
