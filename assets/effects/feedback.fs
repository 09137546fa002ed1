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
    { "TARGET": "loop", "PERSISTENT": true },
    {}
  ]
}*/

void main() {
  vec2 uv = isf_FragNormCoord;
  if (PASSINDEX == 0) {
    vec4 cur = IMG_NORM_PIXEL(inputImage, uv);
    float aspect = RENDERSIZE.x / RENDERSIZE.y;
    vec2 p = (uv - center) * vec2(aspect, 1.0);
    float a = radians(rotation);
    float c = cos(a);
    float s = sin(a);
    p = vec2(c * p.x + s * p.y, -s * p.x + c * p.y) / zoom;
    vec2 src = center + p / vec2(aspect, 1.0);
    vec3 prev = vec3(0.0);
    if (!clear && src.x >= 0.0 && src.x <= 1.0 && src.y >= 0.0 && src.y <= 1.0) prev = IMG_NORM_PIXEL(loop, src).rgb;
    // Color drift rotates the echo's channels a little every frame.
    prev = mix(prev, prev.gbr, hueDrift * 0.15);
    prev = max(prev * decay - 0.5 / 255.0, 0.0);
    gl_FragColor = vec4(max(cur.rgb, prev), 1.0);
  } else {
    gl_FragColor = vec4(IMG_NORM_PIXEL(loop, uv).rgb, IMG_NORM_PIXEL(inputImage, uv).a);
  }
}
