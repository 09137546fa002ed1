// The pixel-mapping patch as state.json holds it: the fixtures and the test mode (which a restart turns off). A
// hand-edited file loads only the fixtures a request could make; the whole-patch rules (destinations, overlaps) are
// checked again when it applies.
import { Compile } from 'typebox/compile';
import { PIXELMAP_LIMITS } from '../limits.js';
import type { PixelTest } from '../shared/pixelmap/colour.js';
import { FixtureSchema, type Fixture } from '../shared/pixelmap/types.js';

export interface PixelmapSaved {
  fixtures: Fixture[];
  test: PixelTest;
}

export const EMPTY_PIXELMAP: PixelmapSaved = { fixtures: [], test: 'off' };

const checkFixture = Compile(FixtureSchema);

/** The saved fixtures whose shape is right (at most the limit); undefined when the part is not there. */
export function sanitizePixelmap(v: unknown): PixelmapSaved | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const p = v as Partial<PixelmapSaved>;
  const fixtures = Array.isArray(p.fixtures) ? p.fixtures.filter((f) => checkFixture.Check(f)).slice(0, PIXELMAP_LIMITS.fixturesMax) : [];
  // A test pattern is never where a restarted box starts: a rig left on 'white' would come up fully lit.
  return { fixtures, test: 'off' };
}
