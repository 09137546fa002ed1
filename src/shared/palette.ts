// How the current palette reaches shaders: `uniform vec3 PALETTE[8]; uniform int PALETTE_COUNT;` (documented for ISF authors).

export const PALETTE_SLOTS = 8;

/** Fallback palette while none is selected (warm-to-cool show colors). */
export const DEFAULT_PALETTE = ['#FF0055', '#FF8800', '#FFDD00', '#00DD88', '#00AAFF', '#7744FF'];

/** `#RRGGBB` strings → PALETTE_SLOTS × rgb floats 0..1 (unused slots repeat the last color) and the count. */
export function paletteUniform(colors: readonly string[]): { rgb: Float32Array; count: number } {
  const list = colors.length > 0 ? colors.slice(0, PALETTE_SLOTS) : DEFAULT_PALETTE;
  const rgb = new Float32Array(PALETTE_SLOTS * 3);
  for (let i = 0; i < PALETTE_SLOTS; i++) {
    const hex = list[Math.min(i, list.length - 1)]!;
    const v = Number.parseInt(hex.slice(1, 7), 16);
    rgb[i * 3] = ((v >> 16) & 255) / 255;
    rgb[i * 3 + 1] = ((v >> 8) & 255) / 255;
    rgb[i * 3 + 2] = (v & 255) / 255;
  }
  return { rgb, count: list.length };
}
