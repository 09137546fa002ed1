// What a mapping may name as its target: an OSC address of vjd's table that takes control. Learn checks it on the
// request, and mappings from the config and the mapping files are checked the same way when they are loaded.
import { OSC_TABLE } from '../transports/addresses/table.js';

const PREFIX = '/vjd/';

/** Whether `to` is an OSC address that takes control (not a feedback-only or unknown one). */
export function controllable(to: string): boolean {
  if (!to.startsWith(PREFIX)) return false;
  const rest = to.slice(PREFIX.length);
  return OSC_TABLE.some((e) => e.map !== undefined && (e.pattern ? e.pattern.test(rest) : e.address === to));
}

/** Why `to` cannot be a mapping's target, or null when it can. */
export const targetProblem = (to: string): string | null =>
  controllable(to) ? null : `${to.slice(0, 256)} is not an OSC address vjd takes control on`;
