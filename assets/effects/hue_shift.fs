/*{
  "NAME": "Hue Shift",
  "DESCRIPTION": "Rotates every color around the hue circle (HSV); Speed keeps it cycling.",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Color"],
  "INPUTS": [
    { "NAME": "inputImage", "TYPE": "image" },
    { "NAME": "shift", "LABEL": "Shift", "TYPE": "float", "MIN": 0.0, "MAX": 1.0, "DEFAULT": 0.25 },
    { "NAME": "speed", "LABEL": "Cycle Speed (turns/s)", "TYPE": "float", "MIN": 0.0, "MAX": 2.0, "DEFAULT": 0.0 }
  ]
}*/

vec3 toHsv(vec3 c) {
  float hi = max(c.r, max(c.g, c.b));
  float lo = min(c.r, min(c.g, c.b));
  float d = hi - lo;
  float h = 0.0;
  if (d > 0.00001) {
    if (hi == c.r) h = (c.g - c.b) / d;
    else if (hi == c.g) h = (c.b - c.r) / d + 2.0;
    else h = (c.r - c.g) / d + 4.0;
    h = fract(h / 6.0 + 1.0);
  }
  float s = hi > 0.00001 ? d / hi : 0.0;
  return vec3(h, s, hi);
}

// Per-channel form: f(n) = V - V*S*max(0, min(k, 4 - k, 1)), k = (n + 6H) mod 6.
float hsvChannel(float n, vec3 hsv) {
  float k = mod(n + hsv.x * 6.0, 6.0);
  return hsv.z - hsv.z * hsv.y * max(0.0, min(min(k, 4.0 - k), 1.0));
}

void main() {
  vec4 c = IMG_THIS_NORM_PIXEL(inputImage);
  vec3 hsv = toHsv(c.rgb);
  hsv.x = fract(hsv.x + shift + TIME * speed);
  gl_FragColor = vec4(hsvChannel(5.0, hsv), hsvChannel(3.0, hsv), hsvChannel(1.0, hsv), c.a);
}
