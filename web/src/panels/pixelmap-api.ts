// The pixel-mapping panel's shapes and calls: GET /pixelmap as the generated description types it, the POST
// /pixelmap routes, and a fixture's pixel count and patch place in words. No topic carries the patch: the panel reads
// it when opened, after each change made here, and when /status's pixelmap figures say it changed elsewhere.
import { call, type Problem } from '../api';
import type { ApiPaths, Got, Op, RequestBody } from '../api-shapes';

export type PixelmapView = Got<'/pixelmap'>;
export type Fixture = PixelmapView['fixtures'][number];
export type Geometry = Fixture['geometry'];
export type TestMode = PixelmapView['test'];
export type FixtureBody = RequestBody<Op<'POST', '/pixelmap/fixtures/add'>>;

type PmPath = Extract<ApiPaths<'POST'>, `/pixelmap/${string}`>;

export const TEST_MODES: Array<{ mode: TestMode; label: string }> = [
  { mode: 'off', label: 'Off (program)' },
  { mode: 'each', label: 'Each in turn' },
  { mode: 'white', label: 'All white' },
];

export const PROTOCOL_NAME: Record<Fixture['protocol'], string> = { artnet: 'Art-Net', sacn: 'sACN' };

export async function readPixelmap(): Promise<PixelmapView | null> {
  const r = await call('GET', '/pixelmap');
  // A 200 cut short (the server stopping) has no body: the panel keeps what it had.
  return r.ok && r.body ? r.body : null;
}

/** One POST /pixelmap route: null when it worked, else the server's problem (a 400 names the field first). */
export async function pmOp<P extends PmPath>(path: P, body: RequestBody<Op<'POST', P>>): Promise<Problem | null> {
  const r = await call('POST', path, { body });
  if (r.ok) return null;
  return r.body ?? { code: String(r.status), message: `HTTP ${r.status}` };
}

export function pixelCount(g: Geometry): number {
  if (g.kind === 'strip') return g.pixels;
  if (g.kind === 'matrix') return g.cols * g.rows;
  return 1;
}

/** `universe.address`, and where the fixture ends when it runs past its first universe (from the server's patch). */
export function placeWords(f: Fixture, patch: PixelmapView['patch']): string {
  const start = `${f.universe}.${f.address}`;
  let end: { universe: number; to: number } | null = null;
  for (const u of patch) {
    if (u.protocol !== f.protocol || u.destination !== f.destination) continue;
    for (const run of u.runs)
      if (run.fixture === f.id && (end === null || u.universe > end.universe)) end = { universe: u.universe, to: run.to };
  }
  return end !== null && end.universe !== f.universe ? `${start}–${end.universe}.${end.to}` : start;
}

/**
 * The request field a refusal names (`universe 40000 is outside …`, `body.geometry.x1 must be …`), as the form's
 * field key (`universe`, `geometry.x1`), or null when it names none the form has.
 */
export function fieldOf(message: string): string | null {
  const m = /^(?:body\.)?([A-Za-z][A-Za-z0-9]*(?:\.[A-Za-z0-9]+)?)\b/.exec(message);
  return m ? m[1]! : null;
}
