// The audio analysis' bands in plain words, one place for every panel that names them (meters, modulation).

export const BAND_NAMES = {
  level: 'Level',
  bass: 'Bass',
  lowMid: 'Low mid',
  highMid: 'High mid',
  high: 'High',
  onset: 'Onset',
} as const;

export type Band = keyof typeof BAND_NAMES;

/** The plain name of band `id`, or the id itself for one the page does not know. */
export const bandName = (id: string): string => (BAND_NAMES as Record<string, string>)[id] ?? id;
