/*{
  "NAME": "Bloom",
  "DESCRIPTION": "Glow around bright areas: bright parts at quarter size, blurred in two passes, added back onto the picture.",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Blur", "Stylize"],
  "INPUTS": [
    { "NAME": "inputImage", "TYPE": "image" },
    { "NAME": "threshold", "LABEL": "Threshold", "TYPE": "float", "MIN": 0.0, "MAX": 1.0, "DEFAULT": 0.7 },
    { "NAME": "intensity", "LABEL": "Intensity", "TYPE": "float", "MIN": 0.0, "MAX": 4.0, "DEFAULT": 1.2 },
    { "NAME": "radius", "LABEL": "Radius", "TYPE": "float", "MIN": 0.5, "MAX": 16.0, "DEFAULT": 6.0 }
  ],
  "PASSES": [
    { "TARGET": "bright", "WIDTH": "max(floor($WIDTH / 4), 1)", "HEIGHT": "max(floor($HEIGHT / 4), 1)" },
    { "TARGET": "glowH", "WIDTH": "max(floor($WIDTH / 4), 1)", "HEIGHT": "max(floor($HEIGHT / 4), 1)" },
    { "TARGET": "glowV", "WIDTH": "max(floor($WIDTH / 4), 1)", "HEIGHT": "max(floor($HEIGHT / 4), 1)" },
    {}
  ]
}*/

// radius is in quarter-size pixels; 9 taps over [-radius, +radius] with sigma = radius / 2: tap k of 4 weighs exp(-2 (k/4)^2).
const float W0 = 1.0;
const float W1 = 0.88250;
const float W2 = 0.60653;
const float W3 = 0.32465;
const float W4 = 0.13534;

void main() {
  vec2 uv = isf_FragNormCoord;
  if (PASSINDEX == 0) {
    // Four bilinear taps one input pixel off the center average a 4x4 block: no shimmering on downscale.
    vec2 ip = 1.0 / IMG_SIZE(inputImage);
    vec3 c = IMG_NORM_PIXEL(inputImage, uv + ip * vec2(-1.0, -1.0)).rgb;
    c += IMG_NORM_PIXEL(inputImage, uv + ip * vec2(1.0, -1.0)).rgb;
    c += IMG_NORM_PIXEL(inputImage, uv + ip * vec2(-1.0, 1.0)).rgb;
    c += IMG_NORM_PIXEL(inputImage, uv + ip * vec2(1.0, 1.0)).rgb;
    c *= 0.25;
    float l = dot(c, vec3(0.2126, 0.7152, 0.0722));
    float k = clamp((l - threshold) / max(1.0 - threshold, 0.001), 0.0, 1.0);
    gl_FragColor = vec4(c * k, 1.0);
  } else if (PASSINDEX == 3) {
    vec4 c = IMG_NORM_PIXEL(inputImage, uv);
    vec3 glow = IMG_NORM_PIXEL(glowV, uv).rgb;
    gl_FragColor = vec4(clamp(c.rgb + glow * intensity, 0.0, 1.0), c.a);
  } else {
    vec3 sum;
    if (PASSINDEX == 1) {
      vec2 s = vec2(radius / 4.0 / RENDERSIZE.x, 0.0);
      sum = IMG_NORM_PIXEL(bright, uv).rgb * W0;
      sum += (IMG_NORM_PIXEL(bright, uv + s).rgb + IMG_NORM_PIXEL(bright, uv - s).rgb) * W1;
      sum += (IMG_NORM_PIXEL(bright, uv + 2.0 * s).rgb + IMG_NORM_PIXEL(bright, uv - 2.0 * s).rgb) * W2;
      sum += (IMG_NORM_PIXEL(bright, uv + 3.0 * s).rgb + IMG_NORM_PIXEL(bright, uv - 3.0 * s).rgb) * W3;
      sum += (IMG_NORM_PIXEL(bright, uv + 4.0 * s).rgb + IMG_NORM_PIXEL(bright, uv - 4.0 * s).rgb) * W4;
    } else {
      vec2 s = vec2(0.0, radius / 4.0 / RENDERSIZE.y);
      sum = IMG_NORM_PIXEL(glowH, uv).rgb * W0;
      sum += (IMG_NORM_PIXEL(glowH, uv + s).rgb + IMG_NORM_PIXEL(glowH, uv - s).rgb) * W1;
      sum += (IMG_NORM_PIXEL(glowH, uv + 2.0 * s).rgb + IMG_NORM_PIXEL(glowH, uv - 2.0 * s).rgb) * W2;
      sum += (IMG_NORM_PIXEL(glowH, uv + 3.0 * s).rgb + IMG_NORM_PIXEL(glowH, uv - 3.0 * s).rgb) * W3;
      sum += (IMG_NORM_PIXEL(glowH, uv + 4.0 * s).rgb + IMG_NORM_PIXEL(glowH, uv - 4.0 * s).rgb) * W4;
    }
    gl_FragColor = vec4(sum / (W0 + 2.0 * (W1 + W2 + W3 + W4)), 1.0);
  }
}
