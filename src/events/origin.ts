// Which `Origin` may open the events socket. Browsers let any page open a WebSocket anywhere and send its origin
// on the upgrade; without this check a page on another site could drive vjd through the socket (the HTTP side
// is guarded by its JSON-only bodies and CORS preflights, which a WebSocket upgrade never goes through).
import { EVENT_LIMITS } from '../limits.js';
import { isLoopbackName } from '../http/host-policy.js';

interface Origin {
  scheme: 'http' | 'https';
  /** Lower case, IPv6 without brackets, no trailing dot. */
  name: string;
  port: number;
}

const ORIGIN = /^(https?):\/\/(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/;
const HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/;

export class OriginPolicy {
  private source: readonly string[] | null = null;
  private listed = new Set<string>();

  /** `configured` is read on every check, so a config reload applies to the next upgrade. */
  constructor(private readonly configured: () => readonly string[]) {}

  /**
   * True for no Origin at all (not a browser), a loopback page (any port), the page vjd itself serves (its origin
   * names the Host the request was sent to; the caller has checked that Host against the host policy), and the
   * operator's `server.allowedOrigins`.
   */
  allows(origin: string, host: string): boolean {
    if (origin === '') return true;
    if (origin.length > EVENT_LIMITS.originMaxLength) return false;
    const o = parseOrigin(origin);
    if (o === null) return false;
    if (isLoopback(o.name)) return true;
    if (host !== '' && sameAuthority(o, host)) return true;
    return this.list().has(canonical(o));
  }

  private list(): Set<string> {
    const now = this.configured();
    if (now !== this.source) {
      this.source = now;
      this.listed = new Set(
        now
          .map(parseOrigin)
          .filter((o): o is Origin => o !== null)
          .map(canonical),
      );
    }
    return this.listed;
  }
}

/** Parses `scheme://host[:port]` (what browsers send; also the form `server.allowedOrigins` takes); null otherwise. */
export function parseOrigin(text: string): Origin | null {
  const m = ORIGIN.exec(text.toLowerCase());
  if (!m) return null;
  const scheme = m[1] as 'http' | 'https';
  const port = m[3] === undefined ? defaultPort(scheme) : Number(m[3]);
  const name = unbracket(m[2]!);
  if (port < 1 || port > 65535 || name === '') return null;
  return { scheme, name, port };
}

function sameAuthority(o: Origin, hostHeader: string): boolean {
  if (hostHeader.length > EVENT_LIMITS.originMaxLength) return false;
  const m = HOST.exec(hostHeader.trim().toLowerCase());
  if (!m) return false;
  const port = m[2] === undefined ? defaultPort(o.scheme) : Number(m[2]);
  return unbracket(m[1]!) === o.name && port === o.port;
}

function canonical(o: Origin): string {
  const host = o.name.includes(':') ? `[${o.name}]` : o.name;
  return o.port === defaultPort(o.scheme) ? `${o.scheme}://${host}` : `${o.scheme}://${host}:${o.port}`;
}

function defaultPort(scheme: 'http' | 'https'): number {
  return scheme === 'https' ? 443 : 80;
}

function unbracket(host: string): string {
  const h = host.startsWith('[') ? host.slice(1, -1) : host;
  return h.endsWith('.') ? h.slice(0, -1) : h;
}

function isLoopback(name: string): boolean {
  return name === 'localhost' || name === '::1' || isLoopbackName(name);
}
