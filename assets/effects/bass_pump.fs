/*{
  "NAME": "Bass Pump",
  "DESCRIPTION": "Zooms into the picture as the bass rises (AUDIO_BASS), so the image breathes with the kick.",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Audio", "Distortion"],
  "INPUTS": [
    { "NAME": "inputImage", "TYPE": "image" },
    { "NAME": "amount", "LABEL": "Zoom at Full Bass", "TYPE": "float", "MIN": 0.0, "MAX": 1.0, "DEFAULT": 0.2 },
    { "NAME": "curve", "LABEL": "Curve", "TYPE": "float", "MIN": 0.5, "MAX": 4.0, "DEFAULT": 2.0 },
    { "NAME": "center", "LABEL": "Center", "TYPE": "point2D", "MIN": [0.0, 0.0], "MAX": [1.0, 1.0], "DEFAULT": [0.5, 0.5] }
  ]
}*/

void main() {
  // A curve above 1 keeps quiet passages still and lets only strong bass move the picture.
  float zoom = 1.0 + amount * pow(clamp(AUDIO_BASS, 0.0, 1.0), curve);
  vec2 uv = center + (isf_FragNormCoord - center) / zoom;
  gl_FragColor = IMG_NORM_PIXEL(inputImage, uv);
}
