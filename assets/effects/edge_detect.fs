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

float lumaAt(vec2 uv) {
  return dot(IMG_NORM_PIXEL(inputImage, uv).rgb, vec3(0.2126, 0.7152, 0.0722));
}

void main() {
  vec2 uv = isf_FragNormCoord;
  vec2 px = 1.0 / RENDERSIZE;
  float tl = lumaAt(uv + px * vec2(-1.0, 1.0));
  float t = lumaAt(uv + px * vec2(0.0, 1.0));
  float tr = lumaAt(uv + px * vec2(1.0, 1.0));
  float l = lumaAt(uv + px * vec2(-1.0, 0.0));
  float r = lumaAt(uv + px * vec2(1.0, 0.0));
  float bl = lumaAt(uv + px * vec2(-1.0, -1.0));
  float b = lumaAt(uv + px * vec2(0.0, -1.0));
  float br = lumaAt(uv + px * vec2(1.0, -1.0));
  float gx = (tr + 2.0 * r + br) - (tl + 2.0 * l + bl);
  float gy = (tl + 2.0 * t + tr) - (bl + 2.0 * b + br);
  // A unit step gives |g| = 4; normalize so strength 1 maps a full step to full brightness.
  float e = clamp(length(vec2(gx, gy)) * 0.25 * strength, 0.0, 1.0);
  vec4 c = IMG_NORM_PIXEL(inputImage, uv);
  vec3 rgb;
  if (mode == 1) {
    rgb = vec3(e);
  } else if (mode == 2) {
    rgb = vec3(1.0 - e);
  } else {
    // Neon: the local average color pushed to full brightness, so edges between dark and light keep a hue.
    vec3 avg = c.rgb;
    avg += IMG_NORM_PIXEL(inputImage, uv + px * vec2(-1.0, 0.0)).rgb + IMG_NORM_PIXEL(inputImage, uv + px * vec2(1.0, 0.0)).rgb;
    avg += IMG_NORM_PIXEL(inputImage, uv + px * vec2(0.0, -1.0)).rgb + IMG_NORM_PIXEL(inputImage, uv + px * vec2(0.0, 1.0)).rgb;
    float m = max(avg.r, max(avg.g, avg.b));
    vec3 hue = m > 0.001 ? avg / m : vec3(1.0);
    rgb = hue * e;
  }
  gl_FragColor = vec4(rgb, c.a);
}
