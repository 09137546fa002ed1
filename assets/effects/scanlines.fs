/*{
  "NAME": "Scanlines",
  "DESCRIPTION": "Dark horizontal lines like an old CRT; Roll makes them crawl.",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Stylize", "Retro"],
  "INPUTS": [
    { "NAME": "inputImage", "TYPE": "image" },
    { "NAME": "spacing", "LABEL": "Spacing (pixels)", "TYPE": "float", "MIN": 2.0, "MAX": 32.0, "DEFAULT": 4.0 },
    { "NAME": "thickness", "LABEL": "Line Thickness", "TYPE": "float", "MIN": 0.0, "MAX": 1.0, "DEFAULT": 0.5 },
    { "NAME": "intensity", "LABEL": "Darkness", "TYPE": "float", "MIN": 0.0, "MAX": 1.0, "DEFAULT": 0.35 },
    { "NAME": "roll", "LABEL": "Roll (pixels/s)", "TYPE": "float", "MIN": -120.0, "MAX": 120.0, "DEFAULT": 0.0 }
  ]
}*/

void main() {
  vec4 c = IMG_THIS_NORM_PIXEL(inputImage);
  float s = max(floor(spacing), 2.0);
  float ph = mod(gl_FragCoord.y + floor(TIME * roll), s) / s;
  float dark = ph < thickness ? intensity : 0.0;
  gl_FragColor = vec4(c.rgb * (1.0 - dark), c.a);
}
