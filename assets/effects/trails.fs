/*{
  "NAME": "Trails",
  "DESCRIPTION": "Motion trails: every frame keeps a fading copy of the previous output (feedback through a persistent buffer).",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Feedback"],
  "INPUTS": [
    { "NAME": "inputImage", "TYPE": "image" },
    { "NAME": "decay", "LABEL": "Persistence", "TYPE": "float", "MIN": 0.0, "MAX": 0.99, "DEFAULT": 0.85 },
    { "NAME": "mode", "LABEL": "Blend", "TYPE": "long", "VALUES": [0, 1, 2], "LABELS": ["Lighten", "Crossfade", "Add"], "DEFAULT": 0 },
    { "NAME": "clear", "LABEL": "Clear", "TYPE": "event" }
  ],
  "PASSES": [
    { "TARGET": "history", "PERSISTENT": true }
  ]
}*/

// One pass: the persistent buffer is also the output (the host copies the last pass's buffer to the frame), so the
// full-size work is two fetches instead of two passes. Only .rgb of the history is read; .a carries the input's alpha.
void main() {
  vec2 uv = isf_FragNormCoord;
  vec4 cur = IMG_NORM_PIXEL(inputImage, uv);
  vec3 hist = clear ? vec3(0.0) : IMG_NORM_PIXEL(history, uv).rgb;
  // The small subtraction lets 8-bit buffers (no float textures) still fade all the way to black.
  vec3 faded = max(hist * decay - 0.5 / 255.0, 0.0);
  vec3 rgb;
  if (mode == 1) rgb = mix(cur.rgb, hist, decay);
  else if (mode == 2) rgb = min(cur.rgb + faded, 1.0);
  else rgb = max(cur.rgb, faded);
  gl_FragColor = vec4(rgb, cur.a);
}
