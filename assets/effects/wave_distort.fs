/*{
  "NAME": "Wave Distort",
  "DESCRIPTION": "Shifts rows and/or columns along travelling sine waves, like a picture seen through water.",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Distortion"],
  "INPUTS": [
    { "NAME": "inputImage", "TYPE": "image" },
    { "NAME": "amplitude", "LABEL": "Amplitude", "TYPE": "float", "MIN": 0.0, "MAX": 0.2, "DEFAULT": 0.015 },
    { "NAME": "frequency", "LABEL": "Waves", "TYPE": "float", "MIN": 0.5, "MAX": 40.0, "DEFAULT": 6.0 },
    { "NAME": "speed", "LABEL": "Speed (cycles/s)", "TYPE": "float", "MIN": -5.0, "MAX": 5.0, "DEFAULT": 0.5 },
    { "NAME": "direction", "LABEL": "Direction", "TYPE": "long", "VALUES": [0, 1, 2], "LABELS": ["Horizontal", "Vertical", "Both"], "DEFAULT": 0 }
  ]
}*/

const float TAU = 6.2831853;

void main() {
  vec2 uv = isf_FragNormCoord;
  float phase = TIME * speed * TAU;
  vec2 off = vec2(0.0);
  if (direction != 1) off.x = amplitude * sin(uv.y * frequency * TAU + phase);
  if (direction != 0) off.y = amplitude * sin(uv.x * frequency * TAU + phase * 1.13);
  vec2 src = 1.0 - abs(mod(uv + off, 2.0) - 1.0);
  gl_FragColor = IMG_NORM_PIXEL(inputImage, src);
}
