/*{
  "NAME": "Sharpen",
  "DESCRIPTION": "Unsharp mask: adds the difference between each pixel and its neighbours back onto it.",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Blur", "Stylize"],
  "INPUTS": [
    { "NAME": "inputImage", "TYPE": "image" },
    { "NAME": "amount", "LABEL": "Amount", "TYPE": "float", "MIN": 0.0, "MAX": 4.0, "DEFAULT": 0.8 },
    { "NAME": "radius", "LABEL": "Radius (pixels)", "TYPE": "float", "MIN": 1.0, "MAX": 6.0, "DEFAULT": 1.0 }
  ]
}*/

void main() {
  vec2 uv = isf_FragNormCoord;
  vec2 px = radius / RENDERSIZE;
  vec4 c = IMG_NORM_PIXEL(inputImage, uv);
  vec3 around = IMG_NORM_PIXEL(inputImage, uv + vec2(px.x, 0.0)).rgb
    + IMG_NORM_PIXEL(inputImage, uv - vec2(px.x, 0.0)).rgb
    + IMG_NORM_PIXEL(inputImage, uv + vec2(0.0, px.y)).rgb
    + IMG_NORM_PIXEL(inputImage, uv - vec2(0.0, px.y)).rgb;
  vec3 rgb = c.rgb + amount * (c.rgb - around * 0.25);
  gl_FragColor = vec4(clamp(rgb, 0.0, 1.0), c.a);
}
