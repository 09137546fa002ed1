/*{
  "NAME": "Feedback",
  "DESCRIPTION": "Video feedback: the previous output is zoomed, turned and faded under the new frame, like a camera pointed at its own screen.",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Feedback"],
  "INPUTS": [
    { "NAME": "inputImage", "TYPE": "image" },
    { "NAME": "zoom", "LABEL": "Zoom per Frame", "TYPE": "float", "MIN": 0.9, "MAX": 1.2, "DEFAULT": 1.02 },
    { "NAME": "rotation", "LABEL": "Turn per Frame (degrees)", "TYPE": "float", "MIN": -10.0, "MAX": 10.0, "DEFAULT": 0.5 },
    { "NAME": "decay", "LABEL": "Persistence", "TYPE": "float", "MIN": 0.0, "MAX": 0.99, "DEFAULT": 0.9 },
    { "NAME": "hueDrift", "LABEL": "Color Drift", "TYPE": "float", "MIN": 0.0, "MAX": 1.0, "DEFAULT": 0.0 },
    { "NAME": "center", "LABEL": "Center", "TYPE": "point2D", "MIN": [0.0, 0.0], "MAX": [1.0, 1.0], "DEFAULT": [0.5, 0.5] },
    { "NAME": "clear", "LABEL": "Clear", "TYPE": "event" }
  ],
  "PASSES": [
    { "TARGET": "loop", "PERSISTENT": true }
  ]
}*/

// One pass: the persistent buffer is also the output (the host copies the last pass's buffer to the frame).
// Only .rgb of the loop is read back; .a carries the input's alpha.
void main() {
  vec2 uv = isf_FragNormCoord;
  vec4 cur = IMG_NORM_PIXEL(inputImage, uv);
  float aspect = RENDERSIZE.x / RENDERSIZE.y;
  float a = radians(rotation);
  float c = cos(a) / zoom;
  float s = sin(a) / zoom;
  vec2 p = (uv - center) * vec2(aspect, 1.0);
  vec2 src = center + vec2(c * p.x + s * p.y, -s * p.x + c * p.y) * vec2(1.0 / aspect, 1.0);
  vec3 prev = IMG_NORM_PIXEL(loop, src).rgb;
  // Outside the buffer (or on clear) the echo is black.
  vec2 inside = step(vec2(0.0), src) * step(src, vec2(1.0));
  prev *= clear ? 0.0 : inside.x * inside.y;
  // Color drift rotates the echo's channels a little every frame.
  prev = mix(prev, prev.gbr, hueDrift * 0.15);
  prev = max(prev * decay - 0.5 / 255.0, 0.0);
  gl_FragColor = vec4(max(cur.rgb, prev), cur.a);
}
