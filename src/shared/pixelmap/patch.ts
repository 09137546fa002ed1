// Where each fixture's channels land: (protocol, destination, universe, first channel) per run of whole pixels. A
// pixel never straddles two universes: a fixture that does not fit continues at the next universe from channel 1.
// patchProblem refuses a patch that could not be sent as asked, naming the field the way the API reports it.
import { PIXELMAP_LIMITS } from '../../limits.js';
import { pixelCount, totalPixels } from './geometry.js';
import { channelsOf, type Fixture } from './types.js';

export type PixelProtocol = Fixture['protocol'];

/** One run of a fixture's pixels in one universe. */
export interface PatchSlot {
  protocol: PixelProtocol;
  destination: string;
  universe: number;
  /** DMX channel (1-based) of the run's first pixel. */
  channel: number;
  /** Index in the fixture of the run's first pixel. */
  firstPixel: number;
  pixels: number;
  /** Channels per pixel (3, or 4 with white). */
  channels: 3 | 4;
}

export const UNIVERSE_RANGE: Record<PixelProtocol, { min: number; max: number; name: string }> = {
  artnet: { min: 0, max: 32767, name: 'Art-Net' },
  sacn: { min: 1, max: 63999, name: 'sACN' },
};

const SLOTS = 512;

/** One key per packet stream: the same universe number on two destinations is two streams. */
export const universeKey = (s: Pick<PatchSlot, 'protocol' | 'destination' | 'universe'>): string =>
  `${s.protocol} ${s.destination} ${s.universe}`;

/** The runs of one fixture, in pixel order. */
export function fixtureSlots(f: Fixture): PatchSlot[] {
  const channels = channelsOf(f.colorOrder);
  const slots: PatchSlot[] = [];
  const total = pixelCount(f);
  let universe = f.universe;
  let channel = f.address;
  let done = 0;
  while (done < total) {
    const fits = Math.min(total - done, Math.floor((SLOTS - channel + 1) / channels));
    if (fits > 0) {
      slots.push({ protocol: f.protocol, destination: f.destination, universe, channel, firstPixel: done, pixels: fits, channels });
      done += fits;
    }
    universe++;
    channel = 1;
  }
  return slots;
}

/** Each fixture's runs, in fixture order. */
export const patchOf = (fixtures: readonly Fixture[]): PatchSlot[][] => fixtures.map(fixtureSlots);

export interface PatchProblem {
  field: string;
  message: string;
}

/** A dotted-quad IPv4 literal (names are never resolved: no lookup can redirect a send). */
export const isIpv4 = (s: string): boolean =>
  /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.test(s) && s.split('.').every((o) => Number(o) <= 255);

/** Why this destination cannot carry this protocol from this box, or null. */
function destinationProblem(f: Fixture, allowed: readonly string[]): string | null {
  const d = JSON.stringify(f.destination);
  if (!allowed.includes(f.destination))
    return `${d} is not one of config pixelmap.destinations (${allowed.length ? allowed.map((a) => JSON.stringify(a)).join(', ') : 'none'})`;
  if (f.destination === 'broadcast' && f.protocol !== 'artnet') return '"broadcast" is for Art-Net; sACN uses "multicast"';
  if (f.destination === 'multicast' && f.protocol !== 'sacn') return '"multicast" is for sACN; Art-Net uses "broadcast"';
  if (f.destination !== 'broadcast' && f.destination !== 'multicast' && !isIpv4(f.destination))
    return `${d} is not an IPv4 address, "broadcast" or "multicast"`;
  return null;
}

/**
 * The first reason `fixtures` cannot be sent as patched, naming the field (`fixtures[3].universe`), or null.
 * `checkDestination` picks the fixtures whose destination is checked (all by default): an edit checks only the one
 * it changes, so a saved fixture whose destination the config has since dropped does not block every other change.
 */
export function patchProblem(
  fixtures: readonly Fixture[],
  allowedDestinations: readonly string[],
  checkDestination: (index: number) => boolean = () => true,
): PatchProblem | null {
  const L = PIXELMAP_LIMITS;
  if (fixtures.length > L.fixturesMax)
    return { field: 'fixtures', message: `${fixtures.length} fixtures are more than the ${L.fixturesMax} a patch may hold` };
  const pixels = totalPixels(fixtures);
  if (pixels > L.pixelsMax)
    return { field: 'fixtures', message: `${pixels} pixels in all are more than the ${L.pixelsMax} a patch may hold` };
  const ids = new Map<string, number>();
  const patch: PatchSlot[][] = [];
  for (const [i, f] of fixtures.entries()) {
    const at = `fixtures[${i}]`;
    const other = ids.get(f.id);
    if (other !== undefined)
      return { field: `${at}.id`, message: `${at}.id ${JSON.stringify(f.id)} is already used by fixtures[${other}]` };
    ids.set(f.id, i);
    const dest = checkDestination(i) ? destinationProblem(f, allowedDestinations) : null;
    if (dest) return { field: `${at}.destination`, message: `${at}.destination ${dest}` };
    const r = UNIVERSE_RANGE[f.protocol];
    if (f.universe < r.min || f.universe > r.max)
      return { field: `${at}.universe`, message: `${at}.universe ${f.universe} is outside ${r.name}'s ${r.min} to ${r.max}` };
    const channels = channelsOf(f.colorOrder);
    if (f.address + channels - 1 > SLOTS)
      return {
        field: `${at}.address`,
        message: `${at}.address ${f.address} leaves no room for one ${channels}-channel pixel (at most ${SLOTS - channels + 1})`,
      };
    const slots = fixtureSlots(f);
    const last = slots[slots.length - 1]!.universe;
    if (last > r.max)
      return { field: `${at}.universe`, message: `${at} continues to universe ${last}, past ${r.name}'s last universe ${r.max}` };
    patch.push(slots);
  }
  const universes = new Set(patch.flat().map(universeKey));
  if (universes.size > L.universesMax)
    return { field: 'fixtures', message: `the patch spans ${universes.size} universes, more than the ${L.universesMax} sent` };
  return overlapProblem(patch, fixtures);
}

/** Two fixtures whose channels share a universe of one destination: the later one is named. */
function overlapProblem(patch: readonly PatchSlot[][], fixtures: readonly Fixture[]): PatchProblem | null {
  type Run = { start: number; end: number; fixture: number; first: boolean };
  const byUniverse = new Map<string, Run[]>();
  for (const [i, slots] of patch.entries()) {
    for (const [k, s] of slots.entries()) {
      const key = universeKey(s);
      const run = { start: s.channel, end: s.channel + s.pixels * s.channels - 1, fixture: i, first: k === 0 };
      const list = byUniverse.get(key);
      if (list) list.push(run);
      else byUniverse.set(key, [run]);
    }
  }
  let found: { a: Run; b: Run; key: string } | null = null;
  for (const [key, runs] of byUniverse) {
    runs.sort((x, y) => x.start - y.start);
    let reach = runs[0]!;
    for (const run of runs.slice(1)) {
      if (run.start <= reach.end) {
        const [a, b] = reach.fixture < run.fixture ? [reach, run] : [run, reach];
        // Of all overlaps, the one whose later fixture comes first in the list, so the answer does not depend on map order.
        if (!found || b.fixture < found.b.fixture) found = { a, b, key };
      }
      if (run.end > reach.end) reach = run;
    }
  }
  if (!found) return null;
  const { a, b, key } = found;
  const at = `fixtures[${b.fixture}]`;
  const [protocol, destination, universe] = key.split(' ');
  return {
    field: b.first ? `${at}.address` : `${at}.universe`,
    message:
      `${at} (${JSON.stringify(fixtures[b.fixture]!.id)}) channels ${b.start}-${b.end} overlap fixtures[${a.fixture}] ` +
      `(${JSON.stringify(fixtures[a.fixture]!.id)}) channels ${a.start}-${a.end} in ${UNIVERSE_RANGE[protocol as PixelProtocol].name} ` +
      `universe ${universe} to ${destination}`,
  };
}
