// The /vjd address space's messages (OSC's: an address and typed arguments, which MIDI mappings also produce) and
// the argument readers the address table's mappers share. Values go through the route's own validation.
import { bad, type Mapped } from '../request.js';

export interface OscArg {
  type: string;
  value: unknown;
}

export interface OscMessage {
  address: string;
  args: OscArg[];
}

/** Buttons send 1 on press and 0 on release: a trigger fires on a missing or non-zero argument only. */
export function trigger(args: OscArg[], then: Mapped): Mapped {
  if (args.length === 0) return then;
  const a = args[0]!;
  if (a.type === 'T') return then;
  if (a.type === 'F') return { kind: 'ignore' };
  if ((a.type === 'i' || a.type === 'f') && typeof a.value === 'number') return a.value === 0 ? { kind: 'ignore' } : then;
  return bad(`a trigger takes no argument or i/f/T/F, got ${a.type}`);
}

export function flag(args: OscArg[]): boolean | string {
  if (args.length !== 1) return `expects one argument (i, T, F or f), got ${args.length}`;
  const a = args[0]!;
  if (a.type === 'T') return true;
  if (a.type === 'F') return false;
  if (a.type === 'i' && typeof a.value === 'number') return a.value !== 0;
  if (a.type === 'f' && typeof a.value === 'number') return a.value >= 0.5;
  return `expects i, T, F or f, got ${a.type}`;
}

export function str(args: OscArg[]): string | null {
  return args.length === 1 && args[0]!.type === 's' && typeof args[0]!.value === 'string' ? args[0]!.value : null;
}

/** One number argument (f, i or d), else null. */
export const number = (args: OscArg[]): number | null => {
  const a = args[0];
  return args.length === 1 && a !== undefined && (a.type === 'f' || a.type === 'i' || a.type === 'd') && typeof a.value === 'number'
    ? a.value
    : null;
};

/** A mapper taking one string argument. */
export const withString =
  (what: string, to: (s: string) => Mapped) =>
  (args: OscArg[]): Mapped => {
    const s = str(args);
    return s === null ? bad(`expects one string (${what})`) : to(s);
  };
