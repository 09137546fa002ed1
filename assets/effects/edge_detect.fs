/*{
  "NAME": "Edge Detect",
  "DESCRIPTION": "Sobel edges of the brightness: neon edges in the local color, white on black, or a pencil sketch.",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Stylize"],
  "INPUTS": [
    { "NAME": "inputImage", "TYPE": "image" },
    { "NAME": "strength", "LABEL": "Strength", "TYPE": "float", "MIN": 0.0, "MAX": 8.0, "DEFAULT": 1.5 },
    { "NAME": "mode", "LABEL": "Style", "TYPE": "long", "VALUES": [0, 1, 2], "LABELS": ["Neon", "White on Black", "Sketch"], "DEFAULT": 0 }
  ]
}*/

// Sobel in four fetches: a bilinear fetch half a texel off on both axes averages a 2x2 block, and the four
// blocks around a pixel give exactly Sobel / 4: gx = (ur + dr) - (ul + dl), gy = (ul + ur) - (dl + dr).
// Their sum is the 3x3 [1 2 1] weighted local average, used for the neon color and alpha.
void main() {
  vec2 uv = isf_FragNormCoord;
  vec2 h = 0.5 / IMG_SIZE(inputImage);
  vec4 ul = IMG_NORM_PIXEL(inputImage, uv + vec2(-h.x, h.y));
  vec4 ur = IMG_NORM_PIXEL(inputImage, uv + h);
  vec4 dl = IMG_NORM_PIXEL(inputImage, uv - h);
  vec4 dr = IMG_NORM_PIXEL(inputImage, uv + vec2(h.x, -h.y));
  vec4 lum = vec4(dot(ul.rgb, vec3(0.2126, 0.7152, 0.0722)), dot(ur.rgb, vec3(0.2126, 0.7152, 0.0722)),
    dot(dl.rgb, vec3(0.2126, 0.7152, 0.0722)), dot(dr.rgb, vec3(0.2126, 0.7152, 0.0722)));
  float gx = 4.0 * ((lum.y + lum.w) - (lum.x + lum.z));
  float gy = 4.0 * ((lum.x + lum.y) - (lum.z + lum.w));
  // A unit step gives |g| = 4; normalize so strength 1 maps a full step to full brightness.
  float e = clamp(length(vec2(gx, gy)) * 0.25 * strength, 0.0, 1.0);
  vec4 avg = ul + ur + dl + dr;
  vec3 rgb;
  if (mode == 1) {
    rgb = vec3(e);
  } else if (mode == 2) {
    rgb = vec3(1.0 - e);
  } else {
    // Neon: the local average color pushed to full brightness, so edges between dark and light keep a hue.
    float m = max(avg.r, max(avg.g, avg.b));
    vec3 hue = m > 0.001 ? avg.rgb / m : vec3(1.0);
    rgb = hue * e;
  }
  gl_FragColor = vec4(rgb, avg.a * 0.25);
}
