// API-key check: constant-time comparison of digests; the key itself is never logged or echoed.
import { createHash, timingSafeEqual } from 'node:crypto';

/** Longest credential header value we look at; longer values are rejected before any work. */
export const MAX_CREDENTIAL_LENGTH = 1024;

export class ApiKeyGuard {
  private digest: Buffer | null = null;
  private readonly listeners: Array<() => void> = [];

  /** Sets (or clears, with null) the key; called at start and on config reload. */
  setKey(key: string | null): void {
    const next = key === null || key === '' ? null : sha256(key);
    const changed = next === null || this.digest === null ? next !== this.digest : !next.equals(this.digest);
    this.digest = next;
    if (changed) for (const fn of this.listeners) fn();
  }

  /** Called after every change of the key (set, replaced or removed): connections authenticated once, such as event sockets, must not outlive it. */
  onChange(fn: () => void): void {
    this.listeners.push(fn);
  }

  get enabled(): boolean {
    return this.digest !== null;
  }

  /** True when no key is set or the request carries the key in X-API-Key or Authorization: Bearer. */
  check(xApiKey: string, authorization: string): boolean {
    const expected = this.digest;
    if (expected === null) return true;
    const candidate = xApiKey !== '' ? xApiKey : bearerToken(authorization);
    if (candidate === null || candidate.length === 0 || candidate.length > MAX_CREDENTIAL_LENGTH) return false;
    // Equal-length digests make the comparison independent of where the strings differ.
    return timingSafeEqual(sha256(candidate), expected);
  }
}

function bearerToken(header: string): string | null {
  if (header.length < 7 || header.length > MAX_CREDENTIAL_LENGTH + 7) return null;
  if (header.slice(0, 7).toLowerCase() !== 'bearer ') return null;
  return header.slice(7).trim();
}

function sha256(s: string): Buffer {
  return createHash('sha256').update(s, 'utf8').digest();
}
