// server.host checks: an IP literal or a host name, and for names the address it resolves to (async, off the main thread).
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/** A name lookup that hangs (unreachable DNS server) fails the load instead of stalling start-up or a reload. */
export const HOST_LOOKUP_MS = 5000;

const LABEL = /^[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?$/;

/** Null when host is an IP literal (v4 or v6) or a well-formed host name; else what is wrong with it. */
export function hostSyntaxProblem(host: string): string | null {
  if (isIP(host) !== 0) return null;
  // getaddrinfo would read "1.2.3" as 1.2.0.3: a dotted number that is not a full IPv4 address is a typo.
  if (/^[\d.]+$/.test(host)) return 'not a full IPv4 address';
  if (host.startsWith('[') && host.endsWith(']')) return 'write an IPv6 address without brackets';
  const labels = host.endsWith('.') ? host.slice(0, -1).split('.') : host.split('.');
  return labels.every((l) => LABEL.test(l)) ? null : 'not a valid host name';
}

/**
 * The address the listener binds for host: host itself when it is an IP literal, else the first address the
 * system resolver returns (the one `net` and uWS would bind for the name too). dns.lookup runs getaddrinfo on
 * libuv's thread pool; binding the resolved literal keeps uWS from resolving synchronously on the main thread.
 */
export async function resolveHost(host: string): Promise<{ address: string } | { problem: string }> {
  if (isIP(host) !== 0) return { address: host };
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<{ problem: string }>((resolve) => {
    timer = setTimeout(() => resolve({ problem: `did not resolve within ${HOST_LOOKUP_MS / 1000} s` }), HOST_LOOKUP_MS);
  });
  const lookedUp = lookup(host).then(
    (r) => ({ address: r.address }),
    (err: NodeJS.ErrnoException) => ({ problem: `does not resolve (${err.code ?? err.message})` }),
  );
  try {
    return await Promise.race([lookedUp, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
