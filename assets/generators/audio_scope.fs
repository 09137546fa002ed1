/*{
  "NAME": "Audio Scope",
  "DESCRIPTION": "Spectrum bars and the live waveform of the selected audio input, in palette colors, pulsing with the level.",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Audio", "Palette"],
  "INPUTS": [
    { "NAME": "spectrum", "TYPE": "audioFFT", "MAX": 96 },
    { "NAME": "wave", "TYPE": "audio", "MAX": 256 },
    { "NAME": "mode", "LABEL": "Show", "TYPE": "long", "VALUES": [0, 1, 2], "LABELS": ["Spectrum and Wave", "Spectrum", "Wave"], "DEFAULT": 0 },
    { "NAME": "gain", "LABEL": "Wave Gain", "TYPE": "float", "MIN": 0.5, "MAX": 8.0, "DEFAULT": 2.0 },
    { "NAME": "lineWidth", "LABEL": "Line Width", "TYPE": "float", "MIN": 1.0, "MAX": 12.0, "DEFAULT": 3.0 },
    { "NAME": "background", "LABEL": "Background", "TYPE": "color", "DEFAULT": [0.0, 0.0, 0.0, 1.0] }
  ]
}*/

void main() {
  vec2 uv = isf_FragNormCoord;
  vec3 col = background.rgb;
  if (mode != 2) {
    float bars = IMG_SIZE(spectrum).x;
    float i = floor(uv.x * bars);
    float v = sqrt(IMG_NORM_PIXEL(spectrum, vec2((i + 0.5) / bars, 0.5)).r);
    float inBar = step(0.1, fract(uv.x * bars)) * step(fract(uv.x * bars), 0.9);
    float lit = inBar * step(uv.y, v * 0.9);
    vec3 bar = mix(PALETTE_COLOR(0), PALETTE_COLOR(1), uv.y / 0.9);
    col = mix(col, bar, lit);
  }
  if (mode != 1) {
    // The sample under this column, centred on 0.5 like every ISF audio image, drawn as a line lineWidth px thick.
    float s = (IMG_NORM_PIXEL(wave, vec2(uv.x, 0.5)).r - 0.5) * gain;
    float y = 0.5 + s;
    float d = abs(uv.y - y) * RENDERSIZE.y;
    float line = 1.0 - smoothstep(lineWidth * 0.5, lineWidth * 0.5 + 1.0, d);
    vec3 ink = PALETTE_COLOR(2) * (0.6 + 0.4 * AUDIO_LEVEL);
    col = mix(col, ink, line);
  }
  gl_FragColor = vec4(col, 1.0);
}
