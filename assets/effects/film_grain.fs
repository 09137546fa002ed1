/*{
  "NAME": "Film Grain",
  "DESCRIPTION": "Animated grain at 24 changes per second, strongest in the mid-tones; mono or colored.",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Film", "Stylize"],
  "INPUTS": [
    { "NAME": "inputImage", "TYPE": "image" },
    { "NAME": "amount", "LABEL": "Amount", "TYPE": "float", "MIN": 0.0, "MAX": 1.0, "DEFAULT": 0.15 },
    { "NAME": "size", "LABEL": "Grain Size (pixels)", "TYPE": "float", "MIN": 1.0, "MAX": 6.0, "DEFAULT": 1.5 },
    { "NAME": "colored", "LABEL": "Colored", "TYPE": "bool", "DEFAULT": false }
  ]
}*/

float grainHash(vec2 p) {
  return fract(sin(dot(p, vec2(41.27, 289.13))) * 15731.743);
}

void main() {
  vec4 c = IMG_THIS_NORM_PIXEL(inputImage);
  vec2 cell = floor(gl_FragCoord.xy / size);
  float seed = mod(floor(TIME * 24.0), 997.0);
  vec2 q = cell + vec2(seed * 7.31, seed * 3.17);
  vec3 n = vec3(grainHash(q));
  if (colored) n = vec3(n.x, grainHash(q + 17.7), grainHash(q + 41.3));
  float l = dot(c.rgb, vec3(0.2126, 0.7152, 0.0722));
  // Grain is most visible in the mid-tones and fades toward pure black and white.
  float w = 0.4 + 2.4 * l * (1.0 - l);
  gl_FragColor = vec4(clamp(c.rgb + (n - 0.5) * amount * w, 0.0, 1.0), c.a);
}
