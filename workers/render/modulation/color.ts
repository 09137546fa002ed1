// RGB ⇄ HSV in place, for modulating a color input's hue, saturation or brightness (all 0..1).

/** Writes hue, saturation, value of rgb[0..2] into hsv[0..2]. */
export function rgbToHsv(rgb: ArrayLike<number>, hsv: number[]): void {
  const r = rgb[0] ?? 0;
  const g = rgb[1] ?? 0;
  const b = rgb[2] ?? 0;
  const max = Math.max(r, g, b);
  const d = max - Math.min(r, g, b);
  let h = 0;
  if (d > 0) {
    if (max === r) h = ((g - b) / d + 6) % 6;
    else if (max === g) h = (b - r) / d + 2;
    else h = (r - g) / d + 4;
  }
  hsv[0] = h / 6;
  hsv[1] = max > 0 ? d / max : 0;
  hsv[2] = max;
}

/** Writes the rgb of hsv[0..2] into rgb[0..2] (alpha untouched). */
export function hsvToRgb(hsv: ArrayLike<number>, rgb: number[]): void {
  const h = (((hsv[0] ?? 0) % 1) + 1) % 1;
  const s = hsv[1] ?? 0;
  const v = hsv[2] ?? 0;
  const i = Math.floor(h * 6);
  const f = h * 6 - i;
  const p = v * (1 - s);
  const q = v * (1 - f * s);
  const t = v * (1 - (1 - f) * s);
  const [r, g, b] = [
    [v, t, p],
    [q, v, p],
    [p, v, t],
    [p, q, v],
    [t, p, v],
    [v, p, q],
  ][i % 6]!;
  rgb[0] = r!;
  rgb[1] = g!;
  rgb[2] = b!;
}
