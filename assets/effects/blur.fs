/*{
  "NAME": "Blur",
  "DESCRIPTION": "Gaussian blur worked out at reduced size: box downsample, horizontal and vertical passes, then scaled back up. Radii of 4 px and more work at 1/2 to 1/32 size, so the cost stays low.",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Blur"],
  "INPUTS": [
    { "NAME": "inputImage", "TYPE": "image" },
    { "NAME": "radius", "LABEL": "Radius (pixels)", "TYPE": "float", "MIN": 0.0, "MAX": 64.0, "DEFAULT": 8.0 }
  ],
  "PASSES": [
    { "TARGET": "work", "WIDTH": "max(floor($WIDTH / max(floor(radius / 2.0), 1.0)), 1)", "HEIGHT": "max(floor($HEIGHT / max(floor(radius / 2.0), 1.0)), 1)" },
    { "TARGET": "work" },
    { "TARGET": "work" }
  ]
}*/

// Gaussian with sigma = radius / 2 full-size pixels (reaching about +-radius), like a 13-tap kernel over
// [-radius, +radius]. Everything runs in one buffer of 1/f size, f = max(floor(radius / 2), 1):
//   pass 0: f x f box downsample of the input (4 bilinear fetches, each averaging 2x2 texels),
//   pass 1: horizontal Gaussian on the buffer, pass 2: vertical (same fetches, direction by PASSINDEX).
// The last pass has a TARGET, so the host copies (bilinearly upscales) that buffer to the frame: no full-size pass.
// On llvmpipe every pass runs every fetch of the shader, so the shader keeps few of them: 4 + 5.
// The buffer sigma leaves room for what the downsample box (f^2 - 1) / 12 and the upscale (about f^2 / 6) add.
void main() {
  vec2 uv = isf_FragNormCoord;
  float f = max(floor(radius / 2.0), 1.0);
  // Pass 0: four fetches a quarter block off the center cover the f x f block evenly (exact box for f = 2 and 4;
  // at f = 1 they all land on the pixel itself).
  vec2 ip = (f > 1.0 ? 0.25 * f : 0.0) / IMG_SIZE(inputImage);
  vec4 down = IMG_NORM_PIXEL(inputImage, uv + ip * vec2(-1.0, -1.0));
  down += IMG_NORM_PIXEL(inputImage, uv + ip * vec2(1.0, -1.0));
  down += IMG_NORM_PIXEL(inputImage, uv + ip * vec2(-1.0, 1.0));
  down += IMG_NORM_PIXEL(inputImage, uv + ip * vec2(1.0, 1.0));

  // Passes 1 and 2: 9 buffer texels (0, +-1 .. +-4) in 5 fetches, neighbours merged at weighted offsets.
  float sigma2 = max(radius * radius * 0.25 - (f * f - 1.0) / 12.0 - f * f / 6.0, 0.04 * f * f) / (f * f);
  float k = -0.5 / sigma2;
  float w1 = exp(k);
  float w2 = exp(4.0 * k);
  float w3 = exp(9.0 * k);
  float w4 = exp(16.0 * k);
  float wa = w1 + w2;
  float wb = w3 + w4;
  vec2 dir = (PASSINDEX == 1 ? vec2(1.0, 0.0) : vec2(0.0, 1.0)) / IMG_SIZE(work);
  vec2 da = dir * ((w1 + 2.0 * w2) / wa);
  vec2 db = dir * ((3.0 * w3 + 4.0 * w4) / wb);
  vec4 sum = IMG_NORM_PIXEL(work, uv);
  sum += (IMG_NORM_PIXEL(work, uv + da) + IMG_NORM_PIXEL(work, uv - da)) * wa;
  sum += (IMG_NORM_PIXEL(work, uv + db) + IMG_NORM_PIXEL(work, uv - db)) * wb;
  sum /= 1.0 + 2.0 * (wa + wb);

  gl_FragColor = PASSINDEX == 0 ? down * 0.25 : sum;
}
