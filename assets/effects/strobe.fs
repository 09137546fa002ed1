/*{
  "NAME": "Strobe",
  "DESCRIPTION": "Rhythmic flashes: alternates the picture with a flash color, with black, or with its negative. Flash fires a single flash.",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Time"],
  "INPUTS": [
    { "NAME": "inputImage", "TYPE": "image" },
    { "NAME": "running", "LABEL": "Running", "TYPE": "bool", "DEFAULT": true },
    { "NAME": "rate", "LABEL": "Rate (flashes/s)", "TYPE": "float", "MIN": 0.25, "MAX": 20.0, "DEFAULT": 2.0 },
    { "NAME": "duty", "LABEL": "Flash Length", "TYPE": "float", "MIN": 0.05, "MAX": 0.95, "DEFAULT": 0.25 },
    { "NAME": "mode", "LABEL": "Style", "TYPE": "long", "VALUES": [0, 1, 2], "LABELS": ["Color Flash", "Blackout", "Invert"], "DEFAULT": 0 },
    { "NAME": "flashColor", "LABEL": "Flash Color", "TYPE": "color", "DEFAULT": [1.0, 1.0, 1.0, 1.0] },
    { "NAME": "flash", "LABEL": "Flash", "TYPE": "event" }
  ]
}*/

void main() {
  vec4 c = IMG_THIS_NORM_PIXEL(inputImage);
  bool on = flash || (running && fract(TIME * rate) < duty);
  vec3 rgb = c.rgb;
  if (mode == 0) {
    if (on) rgb = flashColor.rgb;
  } else if (mode == 1) {
    // Blackout: the picture shows only during the flash.
    if (!on) rgb = vec3(0.0);
  } else {
    if (on) rgb = vec3(1.0) - c.rgb;
  }
  gl_FragColor = vec4(rgb, c.a);
}
