/*{
  "DESCRIPTION": "Multiply where the base is dark, screen where it is light",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Blend"],
  "INPUTS": [
    { "NAME": "baseImage", "TYPE": "image" },
    { "NAME": "layerImage", "TYPE": "image" },
    { "NAME": "opacity", "TYPE": "float", "DEFAULT": 1.0, "MIN": 0.0, "MAX": 1.0 }
  ]
}*/

// The colour at full strength; the compositor calls this same function when it draws a stack in one pass.
vec3 vjdBlend(vec3 base, vec3 top) {
  vec3 low = 2.0 * base * top;
  vec3 high = vec3(1.0) - 2.0 * (vec3(1.0) - base) * (vec3(1.0) - top);
  return mix(low, high, step(vec3(0.5), base));
}

void main() {
  vec4 base = IMG_THIS_NORM_PIXEL(baseImage);
  vec4 top = IMG_THIS_NORM_PIXEL(layerImage);
  float k = opacity;
  gl_FragColor = vec4(mix(base.rgb, vjdBlend(base.rgb, top.rgb), k), base.a + (1.0 - base.a) * k);
}
