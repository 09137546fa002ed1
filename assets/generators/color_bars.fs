/*{
  "NAME": "Color Bars",
  "DESCRIPTION": "Eight vertical test bars (white, yellow, cyan, green, magenta, red, blue, black) at a chosen level, over an optional grey ramp.",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Test Pattern"],
  "INPUTS": [
    { "NAME": "level", "LABEL": "Bar Level", "TYPE": "float", "MIN": 0.5, "MAX": 1.0, "DEFAULT": 0.75 },
    { "NAME": "ramp", "LABEL": "Grey Ramp Strip", "TYPE": "bool", "DEFAULT": true },
    { "NAME": "scroll", "LABEL": "Scroll (screens/s)", "TYPE": "float", "MIN": -2.0, "MAX": 2.0, "DEFAULT": 0.0 }
  ]
}*/

void main() {
  vec2 uv = isf_FragNormCoord;
  float x = fract(uv.x + TIME * scroll);
  // Bottom strip (GL y is up): a horizontal black-to-white ramp for checking levels.
  if (ramp && uv.y < 0.15) {
    gl_FragColor = vec4(vec3(x), 1.0);
    return;
  }
  float i = min(floor(x * 8.0), 7.0);
  // Bars in order: white, yellow, cyan, green, magenta, red, blue, black.
  float r = mod(floor(i / 2.0), 2.0) < 0.5 ? 1.0 : 0.0;
  float g = i < 3.5 ? 1.0 : 0.0;
  float b = mod(i, 2.0) < 0.5 ? 1.0 : 0.0;
  if (i > 6.5) {
    r = 0.0;
    g = 0.0;
    b = 0.0;
  }
  gl_FragColor = vec4(vec3(r, g, b) * level, 1.0);
}
