/*{
  "NAME": "No Signal",
  "DESCRIPTION": "Card shown while a live input delivers no frames: dark grey with slowly drifting diagonal stripes and a lighter band across the middle.",
  "CREDIT": "vjd",
  "ISFVSN": "2",
  "CATEGORIES": ["Internal"],
  "INPUTS": []
}*/

void main() {
  vec2 px = gl_FragCoord.xy;
  // Stripe period scales with the frame height so the card looks the same at every size.
  float period = max(RENDERSIZE.y * 0.08, 4.0);
  float s = fract((px.x + px.y) / period - TIME * 0.15);
  float aa = 1.0 / period;
  float stripe = smoothstep(0.5 - aa, 0.5 + aa, s) * (1.0 - smoothstep(1.0 - aa, 1.0, s));
  float band = 1.0 - smoothstep(0.085, 0.085 + 1.5 / RENDERSIZE.y, abs(isf_FragNormCoord.y - 0.5));
  vec3 rgb = mix(vec3(0.11) + stripe * 0.035, vec3(0.26) + stripe * 0.02, band);
  gl_FragColor = vec4(rgb, 1.0);
}
