/*{
  "NAME": "Chroma Key",
  "DESCRIPTION": "Replaces a key color (green screen by default) with a background color, with a soft edge and spill removal.",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Keying"],
  "INPUTS": [
    { "NAME": "inputImage", "TYPE": "image" },
    { "NAME": "keyColor", "LABEL": "Key Color", "TYPE": "color", "DEFAULT": [0.0, 1.0, 0.0, 1.0] },
    { "NAME": "threshold", "LABEL": "Tolerance", "TYPE": "float", "MIN": 0.0, "MAX": 1.0, "DEFAULT": 0.3 },
    { "NAME": "softness", "LABEL": "Edge Softness", "TYPE": "float", "MIN": 0.0, "MAX": 0.5, "DEFAULT": 0.1 },
    { "NAME": "spill", "LABEL": "Spill Removal", "TYPE": "float", "MIN": 0.0, "MAX": 1.0, "DEFAULT": 0.5 },
    { "NAME": "background", "LABEL": "Background", "TYPE": "color", "DEFAULT": [0.0, 0.0, 0.0, 1.0] }
  ]
}*/

// BT.601 chroma (Cb, Cr): distances ignore brightness, so shadows on the screen still key.
vec2 chroma(vec3 c) {
  return vec2(dot(c, vec3(-0.168736, -0.331264, 0.5)), dot(c, vec3(0.5, -0.418688, -0.081312)));
}

void main() {
  vec4 c = IMG_THIS_NORM_PIXEL(inputImage);
  float d = distance(chroma(c.rgb), chroma(keyColor.rgb));
  float keep = smoothstep(threshold, threshold + softness + 0.0001, d);
  // Pixels that are near the key but kept (edges, reflections) lose some of their color cast.
  float near = 1.0 - smoothstep(threshold, threshold + softness + 0.25, d);
  vec3 rgb = mix(c.rgb, vec3(dot(c.rgb, vec3(0.299, 0.587, 0.114))), spill * near);
  gl_FragColor = vec4(mix(background.rgb, rgb, keep), mix(background.a, c.a, keep));
}
