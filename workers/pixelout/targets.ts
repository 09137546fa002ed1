// Where a universe's packets go, decided in one place: only a destination in the config's list, and only the kind
// of address its protocol allows. Addresses are literals: nothing is resolved, so no lookup can redirect a send.
import { sacnGroup } from '../../src/shared/pixelmap/packets.js';
import { isIpv4, type PixelProtocol } from '../../src/shared/pixelmap/patch.js';

/** The limited broadcast: the operator allowed "broadcast", not a particular subnet. */
export const BROADCAST = '255.255.255.255';

export function isAllowed(protocol: PixelProtocol, destination: string, allowed: readonly string[]): boolean {
  if (!allowed.includes(destination)) return false;
  if (destination === 'broadcast') return protocol === 'artnet';
  if (destination === 'multicast') return protocol === 'sacn';
  return isIpv4(destination);
}

/** The address a universe's packets go to, or null when its destination is not allowed. */
export function addressOf(protocol: PixelProtocol, destination: string, universe: number, allowed: readonly string[]): string | null {
  if (!isAllowed(protocol, destination, allowed)) return null;
  if (destination === 'broadcast') return BROADCAST;
  if (destination === 'multicast') return sacnGroup(universe);
  return destination;
}
