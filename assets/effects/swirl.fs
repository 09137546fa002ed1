/*{
  "NAME": "Swirl",
  "DESCRIPTION": "Twists the picture around a center point; the twist fades out toward the radius.",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Distortion"],
  "INPUTS": [
    { "NAME": "inputImage", "TYPE": "image" },
    { "NAME": "angle", "LABEL": "Twist (degrees)", "TYPE": "float", "MIN": -720.0, "MAX": 720.0, "DEFAULT": 120.0 },
    { "NAME": "radius", "LABEL": "Radius", "TYPE": "float", "MIN": 0.05, "MAX": 1.5, "DEFAULT": 0.45 },
    { "NAME": "center", "LABEL": "Center", "TYPE": "point2D", "MIN": [0.0, 0.0], "MAX": [1.0, 1.0], "DEFAULT": [0.5, 0.5] },
    { "NAME": "wobble", "LABEL": "Wobble (Hz)", "TYPE": "float", "MIN": 0.0, "MAX": 4.0, "DEFAULT": 0.0 }
  ]
}*/

void main() {
  float aspect = RENDERSIZE.x / RENDERSIZE.y;
  vec2 p = (isf_FragNormCoord - center) * vec2(aspect, 1.0);
  float d = length(p);
  vec2 uv = isf_FragNormCoord;
  if (d < radius) {
    float k = 1.0 - d / radius;
    float tw = radians(angle) * k * k;
    if (wobble > 0.0) tw *= sin(TIME * wobble * 6.2831853);
    float c = cos(tw);
    float s = sin(tw);
    p = vec2(c * p.x - s * p.y, s * p.x + c * p.y);
    uv = center + p / vec2(aspect, 1.0);
  }
  gl_FragColor = IMG_NORM_PIXEL(inputImage, clamp(uv, 0.0, 1.0));
}
