/*{
  "NAME": "Glitch",
  "DESCRIPTION": "Digital breakup: random horizontal bands jump sideways with split color channels, changing several times a second.",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Glitch"],
  "INPUTS": [
    { "NAME": "inputImage", "TYPE": "image" },
    { "NAME": "amount", "LABEL": "Amount", "TYPE": "float", "MIN": 0.0, "MAX": 1.0, "DEFAULT": 0.3 },
    { "NAME": "rate", "LABEL": "Changes per Second", "TYPE": "float", "MIN": 0.5, "MAX": 30.0, "DEFAULT": 8.0 },
    { "NAME": "bands", "LABEL": "Bands", "TYPE": "float", "MIN": 2.0, "MAX": 80.0, "DEFAULT": 24.0 },
    { "NAME": "shift", "LABEL": "Max Shift", "TYPE": "float", "MIN": 0.0, "MAX": 0.5, "DEFAULT": 0.12 },
    { "NAME": "burst", "LABEL": "Burst", "TYPE": "event" }
  ]
}*/

float glitchHash(vec2 p) {
  return fract(sin(dot(p, vec2(41.27, 289.13))) * 15731.743);
}

void main() {
  vec2 uv = isf_FragNormCoord;
  float stepT = mod(floor(TIME * rate), 1009.0);
  float level = burst ? 1.0 : amount;
  // Two band grids (coarse and fine) so the breakup does not look like a regular grid.
  float coarse = floor(uv.y * bands * 0.25);
  float fine = floor(uv.y * bands);
  float pickCoarse = glitchHash(vec2(coarse, stepT));
  float pickFine = glitchHash(vec2(fine + 101.0, stepT));
  float dx = 0.0;
  if (pickCoarse < level * 0.5) dx += (glitchHash(vec2(coarse, stepT + 13.0)) - 0.5) * 2.0 * shift;
  if (pickFine < level * 0.35) dx += (glitchHash(vec2(fine, stepT + 29.0)) - 0.5) * shift;
  // Three fetches in every case (llvmpipe runs both sides of a branch anyway); with dx = 0 all three read uv.
  float split = dx * 0.35;
  vec4 c = IMG_NORM_PIXEL(inputImage, vec2(dx != 0.0 ? fract(uv.x + dx) : uv.x, uv.y));
  c.r = IMG_NORM_PIXEL(inputImage, vec2(dx != 0.0 ? fract(uv.x + dx + split) : uv.x, uv.y)).r;
  c.b = IMG_NORM_PIXEL(inputImage, vec2(dx != 0.0 ? fract(uv.x + dx - split) : uv.x, uv.y)).b;
  gl_FragColor = c;
}
