/*{
  "NAME": "Bloom",
  "DESCRIPTION": "Glow around bright areas: bright parts at quarter size, spread by three small blur passes, added back onto the picture.",
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
    { "TARGET": "glow", "WIDTH": "max(floor($WIDTH / 4), 1)", "HEIGHT": "max(floor($HEIGHT / 4), 1)" },
    { "TARGET": "glow" },
    { "TARGET": "glow" },
    { "TARGET": "glow" },
    {}
  ]
}*/

// One quarter-size buffer, passed along from pass to pass:
//   pass 0: bright pass (a 4x4 box of the input in four bilinear fetches, then the threshold),
//   passes 1-3: Kawase blur, four bilinear fetches on the diagonals at (i + 0.5) * step texels, i = 0..2;
//     together a near-Gaussian with sigma = radius / 2 quarter-size pixels (variance 8.75 step^2 per axis),
//   pass 4 (full size): the input plus the glow, read with the same four fetches at half a texel (a smooth upscale).
// On llvmpipe every pass runs every fetch of the shader (and each pass has a fixed cost), so all passes share
// these 8 fetches and the pass count is kept low.
void main() {
  vec2 uv = isf_FragNormCoord;
  // The final pass reads the input pixel itself with the first of the bright-pass fetches.
  vec2 ip = (PASSINDEX == 0 ? 1.0 : 0.0) / IMG_SIZE(inputImage);
  vec4 c0 = IMG_NORM_PIXEL(inputImage, uv - ip);
  vec3 c = c0.rgb + IMG_NORM_PIXEL(inputImage, uv + ip * vec2(1.0, -1.0)).rgb;
  c += IMG_NORM_PIXEL(inputImage, uv + ip * vec2(-1.0, 1.0)).rgb + IMG_NORM_PIXEL(inputImage, uv + ip).rgb;
  c *= 0.25;
  float l = dot(c, vec3(0.2126, 0.7152, 0.0722));
  float k = clamp((l - threshold) / max(1.0 - threshold, 0.001), 0.0, 1.0);

  float d = PASSINDEX == 4 ? 0.5 : (float(PASSINDEX) - 0.5) * radius / 5.9161;
  vec2 gp = d / IMG_SIZE(glow);
  vec3 g = IMG_NORM_PIXEL(glow, uv - gp).rgb + IMG_NORM_PIXEL(glow, uv + gp).rgb;
  g += IMG_NORM_PIXEL(glow, uv + gp * vec2(1.0, -1.0)).rgb + IMG_NORM_PIXEL(glow, uv + gp * vec2(-1.0, 1.0)).rgb;
  g *= 0.25;

  if (PASSINDEX == 0) gl_FragColor = vec4(c * k, 1.0);
  else if (PASSINDEX == 4) gl_FragColor = vec4(clamp(c0.rgb + g * intensity, 0.0, 1.0), c0.a);
  else gl_FragColor = vec4(g, 1.0);
}
