/*{
  "DESCRIPTION": "The lighter of the two per channel",
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
  return max(base, top);
}

void main() {
  vec4 base = IMG_THIS_NORM_PIXEL(baseImage);
  vec4 top = IMG_THIS_NORM_PIXEL(layerImage);
  float k = opacity;
  gl_FragColor = vec4(mix(base.rgb, vjdBlend(base.rgb, top.rgb), k), base.a + (1.0 - base.a) * k);
}
