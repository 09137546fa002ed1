// Which `Host` header values vjd answers for. A page on another site that re-points its own name at this box
// (DNS rebinding) sends its own name as Host; refusing names vjd does not know closes that door, while every
// way a person or control surface really addresses the box (loopback, an IP literal of this machine, the bound
// host, the machine's name or its mDNS name, or an operator-listed name) keeps working.
import { hostname, networkInterfaces } from 'node:os';

/** Host header values longer than this are refused before any parsing (a DNS name has at most 253 characters). */
const MAX_HOST_LENGTH = 300;
/** Interface addresses change (DHCP, a cable plugged in); an unknown host re-reads them at most this often. */
const REFRESH_MS = 2000;
/** Header values remembered as allowed; a client sends the same one on every request, so a few cover them all. */
const PASSED_MAX = 16;

export class HostPolicy {
  private allowed = new Set<string>();
  private readAt = 0;
  private bound = '';
  private extra: readonly string[] = [];
  /** Exact header values that passed against the current `allowed` set, so a repeat skips parsing; emptied with it. */
  private passed = new Set<string>();

  constructor() {
    this.rebuild();
  }

  /** The bound host and the operator's `server.allowedHosts`; called at start and on every config reload. */
  configure(boundHost: string, allowedHosts: readonly string[]): void {
    this.bound = normalize(boundHost);
    this.extra = allowedHosts.map(normalize);
    this.rebuild();
  }

  /** True when the request's Host header names this server. An absent header (non-browser clients) passes. */
  allows(hostHeader: string, now?: number): boolean {
    if (hostHeader === '' || this.passed.has(hostHeader)) return true;
    if (hostHeader.length > MAX_HOST_LENGTH) return false;
    const name = stripPort(hostHeader);
    if (name === null) return false;
    if (this.allowed.has(name) || isLoopbackName(name)) return this.pass(hostHeader);
    const at = now ?? Date.now();
    if (at - this.readAt < REFRESH_MS) return false;
    this.rebuild(at);
    return this.allowed.has(name) && this.pass(hostHeader);
  }

  private pass(hostHeader: string): true {
    if (this.passed.size < PASSED_MAX) this.passed.add(hostHeader);
    return true;
  }

  private rebuild(now = Date.now()): void {
    const next = new Set<string>(['localhost', '::1', ...this.extra]);
    if (this.bound !== '') next.add(this.bound);
    const host = normalize(hostname());
    if (host !== '') {
      next.add(host);
      next.add(`${host}.local`);
    }
    for (const addrs of Object.values(networkInterfaces())) {
      for (const a of addrs ?? []) next.add(normalize(a.address));
    }
    this.allowed = next;
    this.passed = new Set();
    this.readAt = now;
  }
}

/** Lower-cased host without port, brackets or a trailing dot; null when the header is malformed. */
export function stripPort(header: string): string | null {
  let h = header.trim().toLowerCase();
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    if (end < 0) return null;
    const rest = h.slice(end + 1);
    if (rest !== '' && !/^:\d{1,5}$/.test(rest)) return null;
    h = h.slice(1, end);
  } else {
    const colon = h.indexOf(':');
    if (colon >= 0) {
      if (!/^\d{1,5}$/.test(h.slice(colon + 1))) return null;
      h = h.slice(0, colon);
    }
  }
  if (h.endsWith('.')) h = h.slice(0, -1);
  return h === '' ? null : h;
}

function normalize(host: string): string {
  return (stripPort(host.includes(':') && !host.startsWith('[') && host.split(':').length > 2 ? `[${host}]` : host) ?? '').replace(
    /%.*$/,
    '',
  );
}

/** 127.0.0.0/8, ::1 and the reserved `.localhost` names always mean this machine. */
export function isLoopbackName(name: string): boolean {
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name) || name.endsWith('.localhost') || name === '::ffff:127.0.0.1';
}
