/*{
  "NAME": "Blur",
  "DESCRIPTION": "Gaussian blur: horizontal pass into a buffer, vertical pass into a second one, then scaled back up. Large radii work at reduced size, so cost stays flat.",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Blur"],
  "INPUTS": [
    { "NAME": "inputImage", "TYPE": "image" },
    { "NAME": "radius", "LABEL": "Radius (pixels)", "TYPE": "float", "MIN": 0.0, "MAX": 64.0, "DEFAULT": 8.0 }
  ],
  "PASSES": [
    { "TARGET": "blurH", "WIDTH": "max(floor($WIDTH / max(floor(radius / 4), 1)), 1)", "HEIGHT": "max(floor($HEIGHT / max(floor(radius / 4), 1)), 1)" },
    { "TARGET": "blurV", "WIDTH": "max(floor($WIDTH / max(floor(radius / 4), 1)), 1)", "HEIGHT": "max(floor($HEIGHT / max(floor(radius / 4), 1)), 1)" },
    {}
  ]
}*/

// 13 taps over [-radius, +radius] in full-size pixels, sigma = radius / 2: tap k of 6 weighs exp(-2 (k/6)^2).
// The buffers shrink by floor(radius / 4), which keeps the blur at least two buffer pixels wide (no blockiness).
const float W0 = 1.0;
const float W1 = 0.94596;
const float W2 = 0.80074;
const float W3 = 0.60653;
const float W4 = 0.41111;
const float W5 = 0.24935;
const float W6 = 0.13534;

void main() {
  vec2 uv = isf_FragNormCoord;
  if (PASSINDEX == 2) {
    gl_FragColor = IMG_NORM_PIXEL(blurV, uv);
    return;
  }
  float r = max(radius, 0.0) / 6.0;
  vec4 sum;
  if (PASSINDEX == 0) {
    vec2 s = vec2(r / IMG_SIZE(inputImage).x, 0.0);
    sum = IMG_NORM_PIXEL(inputImage, uv) * W0;
    sum += (IMG_NORM_PIXEL(inputImage, uv + s) + IMG_NORM_PIXEL(inputImage, uv - s)) * W1;
    sum += (IMG_NORM_PIXEL(inputImage, uv + 2.0 * s) + IMG_NORM_PIXEL(inputImage, uv - 2.0 * s)) * W2;
    sum += (IMG_NORM_PIXEL(inputImage, uv + 3.0 * s) + IMG_NORM_PIXEL(inputImage, uv - 3.0 * s)) * W3;
    sum += (IMG_NORM_PIXEL(inputImage, uv + 4.0 * s) + IMG_NORM_PIXEL(inputImage, uv - 4.0 * s)) * W4;
    sum += (IMG_NORM_PIXEL(inputImage, uv + 5.0 * s) + IMG_NORM_PIXEL(inputImage, uv - 5.0 * s)) * W5;
    sum += (IMG_NORM_PIXEL(inputImage, uv + 6.0 * s) + IMG_NORM_PIXEL(inputImage, uv - 6.0 * s)) * W6;
  } else {
    vec2 s = vec2(0.0, r / IMG_SIZE(inputImage).y);
    sum = IMG_NORM_PIXEL(blurH, uv) * W0;
    sum += (IMG_NORM_PIXEL(blurH, uv + s) + IMG_NORM_PIXEL(blurH, uv - s)) * W1;
    sum += (IMG_NORM_PIXEL(blurH, uv + 2.0 * s) + IMG_NORM_PIXEL(blurH, uv - 2.0 * s)) * W2;
    sum += (IMG_NORM_PIXEL(blurH, uv + 3.0 * s) + IMG_NORM_PIXEL(blurH, uv - 3.0 * s)) * W3;
    sum += (IMG_NORM_PIXEL(blurH, uv + 4.0 * s) + IMG_NORM_PIXEL(blurH, uv - 4.0 * s)) * W4;
    sum += (IMG_NORM_PIXEL(blurH, uv + 5.0 * s) + IMG_NORM_PIXEL(blurH, uv - 5.0 * s)) * W5;
    sum += (IMG_NORM_PIXEL(blurH, uv + 6.0 * s) + IMG_NORM_PIXEL(blurH, uv - 6.0 * s)) * W6;
  }
  gl_FragColor = sum / (W0 + 2.0 * (W1 + W2 + W3 + W4 + W5 + W6));
}
