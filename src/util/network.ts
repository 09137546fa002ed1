// Addresses other devices on the network can use to reach the server, derived from the bind host.
// The URL path comes from the caller, so this module depends on nothing of vjd's own.
import { networkInterfaces } from 'node:os';

export interface NetworkAddress {
  address: string;
  family: 'IPv4' | 'IPv6';
  interface: string;
  url: string;
}

export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

/** Empty for loopback hosts (reachable from this machine only); every external interface for wildcard hosts. */
export function networkAddresses(host: string, port: number, basePath: string): NetworkAddress[] {
  if (isLoopbackHost(host)) return [];
  const wildcard4 = host === '0.0.0.0';
  const wildcard6 = host === '::';
  const out: NetworkAddress[] = [];
  for (const [name, addrs] of Object.entries(networkInterfaces())) {
    for (const a of addrs ?? []) {
      if (a.internal) continue;
      const family = a.family === 'IPv6' ? 'IPv6' : 'IPv4';
      if (family === 'IPv6' && a.address.startsWith('fe80')) continue; // link-local needs a zone id: useless in a URL
      const wanted = wildcard6 || (wildcard4 && family === 'IPv4') || a.address === host;
      if (!wanted) continue;
      out.push({ address: a.address, family, interface: name, url: urlFor(a.address, family, port, basePath) });
    }
  }
  if (out.length === 0 && !wildcard4 && !wildcard6) {
    const family = host.includes(':') ? 'IPv6' : 'IPv4';
    out.push({ address: host, family, interface: '', url: urlFor(host, family, port, basePath) });
  }
  return out;
}

function urlFor(address: string, family: 'IPv4' | 'IPv6', port: number, basePath: string): string {
  return `http://${family === 'IPv6' ? `[${address}]` : address}:${port}${basePath}`;
}

/** Interface enumeration is a syscall per call: hot routes (GET /status) read this cache, refreshed at most every few seconds. */
export class AddressCache {
  private key = '';
  private at = 0;
  private value: NetworkAddress[] = [];

  constructor(
    private readonly basePath: string,
    private readonly ttlMs = 5000,
  ) {}

  get(host: string, port: number): NetworkAddress[] {
    const key = `${host}|${port}`;
    const now = Date.now();
    if (key !== this.key || now - this.at > this.ttlMs) {
      this.value = networkAddresses(host, port, this.basePath);
      this.key = key;
      this.at = now;
    }
    return this.value;
  }
}
