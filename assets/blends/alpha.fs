/*{
  "DESCRIPTION": "The layer over what lies below it, weighted by the layer's own alpha (keyed sources)",
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
  return top;
}

// The strength also follows the layer's alpha, so its transparent parts show what lies below.
float vjdWeight(vec4 top) {
  return top.a;
}

void main() {
  vec4 base = IMG_THIS_NORM_PIXEL(baseImage);
  vec4 top = IMG_THIS_NORM_PIXEL(layerImage);
  float k = opacity * vjdWeight(top);
  gl_FragColor = vec4(mix(base.rgb, vjdBlend(base.rgb, top.rgb), k), base.a + (1.0 - base.a) * k);
}
