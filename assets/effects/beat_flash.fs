/*{
  "NAME": "Beat Flash",
  "DESCRIPTION": "Flashes a color on every beat, every bar or every detected onset, fading until the next one; the calibration aid for audio.offsetMs.",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Audio", "Time"],
  "INPUTS": [
    { "NAME": "inputImage", "TYPE": "image" },
    { "NAME": "trigger", "LABEL": "On", "TYPE": "long", "VALUES": [0, 1, 2], "LABELS": ["Beat", "Bar", "Onset"], "DEFAULT": 0 },
    { "NAME": "flashColor", "LABEL": "Flash Color", "TYPE": "color", "DEFAULT": [1.0, 1.0, 1.0, 1.0] },
    { "NAME": "amount", "LABEL": "Amount", "TYPE": "float", "MIN": 0.0, "MAX": 1.0, "DEFAULT": 0.8 },
    { "NAME": "decay", "LABEL": "Decay", "TYPE": "float", "MIN": 1.0, "MAX": 30.0, "DEFAULT": 8.0 }
  ]
}*/

void main() {
  vec4 c = IMG_THIS_PIXEL(inputImage);
  // Full at the start of a beat (or bar), falling off exponentially; an onset brings its own decaying value.
  float env = exp(-decay * BEAT_PHASE);
  if (trigger == 1) env = exp(-decay * BAR_PHASE * 4.0);
  if (trigger == 2) env = pow(clamp(AUDIO_ONSET, 0.0, 1.0), decay / 8.0);
  gl_FragColor = vec4(mix(c.rgb, flashColor.rgb, clamp(amount * env, 0.0, 1.0)), c.a);
}
