// The HTTP listener's lifecycle: Server Running / Starting / Disabled, rebinding on settings changes
// make-before-break (the old socket serves until the new one is bound), closing the connections of a retired
// listener, and draining in-flight requests on shutdown.
import { createServer, isIPv4 } from 'node:net';
import type { Logger } from '../log.js';
import { mountRouter, type RequestPolicy } from './adapter.js';
import type { Router } from './router.js';
import { isNativeModule, type TemplatedApp, type us_listen_socket, type Uws } from './uws.js';

export type ServerState = 'Server Running' | 'Server Starting' | 'Server Disabled';

export interface ListenWish {
  enabled: boolean;
  /** server.host as configured (shown in the status). */
  host: string;
  /** The IP literal to bind: host itself, or what its name resolved to in the config load. */
  address: string;
  port: number;
  /** Null when a valid license is held; otherwise why the server may not run. */
  licenseProblem: string | null;
}

export interface ListenerStatus {
  state: ServerState;
  /**
   * Why the server is not running (disabled switch, license, bind failure), or, while running, why it still
   * serves on an older address than the configured one; null when running where configured.
   */
  reason: string | null;
  host: string;
  port: number;
}

interface Serving {
  socket: us_listen_socket;
  host: string;
  address: string;
  port: number;
}

const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 5000;

export class HttpListener {
  /** The listen socket now serving; a new one replaces it only once bound (make-before-break). */
  private serving: Serving | null = null;
  /** Id of the one app whose connections may be served; any other app closes its connections on their next request. */
  private liveApp = 0;
  private appIds = 0;
  private wish: ListenWish | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private retryDelay = RETRY_MIN_MS;
  private inflight = 0;
  private drainWaiters: Array<() => void> = [];
  private current: ListenerStatus = { state: 'Server Disabled', reason: 'not started', host: '', port: 0 };
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly uws: Uws,
    private readonly router: Router,
    private readonly policy: RequestPolicy,
    private readonly log: Logger,
    private readonly onStatus: (s: ListenerStatus) => void,
    /** Registers routes the route table does not hold (the event WebSocket) on each new app, before the table. */
    private readonly mountExtra: (app: TemplatedApp, isLive: () => boolean) => void = () => undefined,
  ) {}

  get status(): ListenerStatus {
    return this.current;
  }

  get inFlight(): number {
    return this.inflight;
  }

  /** Applies the wanted settings; calls are serialized so rapid config edits settle on the last one. */
  apply(wish: ListenWish): Promise<void> {
    this.wish = wish;
    this.chain = this.chain
      .then(() => this.reconcile())
      .catch((err: unknown) => {
        this.log.error({ err }, 'listener reconcile failed');
      });
    return this.chain;
  }

  /** Stops accepting, closes the listen socket, and waits (bounded) for in-flight requests. */
  async close(drainMs: number): Promise<void> {
    this.wish = { enabled: false, host: '', address: '', port: 0, licenseProblem: null };
    this.clearRetry();
    this.unbind();
    this.setStatus({ state: 'Server Disabled', reason: 'shutting down', host: '', port: 0 });
    if (this.inflight === 0) return;
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, drainMs);
      this.drainWaiters.push(() => {
        clearTimeout(t);
        resolve();
      });
    });
  }

  private async reconcile(): Promise<void> {
    const wish = this.wish;
    if (!wish) return;
    this.clearRetry();
    // Switching off and losing the license close at once: there is nothing to make before the break.
    if (!wish.enabled || wish.licenseProblem !== null) {
      if (this.serving) this.log.info({ host: this.serving.host, port: this.serving.port }, 'listener closed');
      this.unbind();
      const reason = !wish.enabled ? 'server.enabled is false' : `no valid license: ${wish.licenseProblem}`;
      this.setStatus({ state: 'Server Disabled', reason, host: wish.host, port: wish.port });
      return;
    }
    if (this.serving && this.serving.address === wish.address && this.serving.port === wish.port) {
      // Same socket address (a revert while a move was pending, or a name for the same address): keep the socket.
      this.serving.host = wish.host;
      this.retryDelay = RETRY_MIN_MS;
      this.setStatus({ state: 'Server Running', reason: null, host: wish.host, port: wish.port });
      return;
    }
    if (this.serving && overlaps(this.serving, wish)) {
      // A wildcard and a specific address on one port: the probe below would only find our own socket, so this one
      // move closes first (a gap of one bind when the address is free).
      this.log.info(
        { from: `${this.serving.host}:${this.serving.port}`, to: `${wish.host}:${wish.port}` },
        'listener closed to rebind an overlapping address',
      );
      this.unbind();
    }
    if (!this.serving) this.setStatus({ state: 'Server Starting', reason: null, host: wish.host, port: wish.port });
    const free = await portIsFree(wish.address, wish.port);
    if (this.wish !== wish) return; // superseded while probing
    if (free !== true) {
      this.scheduleRetry(wish, `cannot listen on ${endpoint(wish)}: ${free}`);
      return;
    }
    const id = ++this.appIds;
    const app: TemplatedApp = this.uws.App();
    this.mountExtra(app, () => id === this.liveApp);
    mountRouter(app, this.router, {
      ...this.policy,
      log: this.log,
      isLive: () => id === this.liveApp,
      nativeEngine: isNativeModule(this.uws),
      started: () => {
        this.inflight++;
      },
      finished: () => this.requestFinished(),
    });
    const socket = await new Promise<us_listen_socket | false>((resolve) => app.listen(wish.address, wish.port, resolve));
    if (!socket) {
      this.scheduleRetry(wish, `cannot listen on ${endpoint(wish)}`);
      return;
    }
    // The new socket is up: only now is the old one closed, and its kept-alive connections with it.
    const old = this.serving;
    this.serving = { socket, host: wish.host, address: wish.address, port: wish.port };
    this.liveApp = id;
    if (old) {
      this.uws.us_listen_socket_close(old.socket);
      this.log.info({ from: `${old.host}:${old.port}`, to: `${wish.host}:${wish.port}` }, 'listener moved');
    }
    this.retryDelay = RETRY_MIN_MS;
    this.setStatus({ state: 'Server Running', reason: null, host: wish.host, port: wish.port });
  }

  /** While an older socket serves, the state stays Running on its address and the reason names the wanted one. */
  private scheduleRetry(wish: ListenWish, reason: string): void {
    this.log.error({ host: wish.host, port: wish.port, retryInMs: this.retryDelay }, reason);
    const old = this.serving;
    if (old) {
      this.setStatus({
        state: 'Server Running',
        reason: `${reason}; still serving on ${old.host}:${old.port}`,
        host: old.host,
        port: old.port,
      });
    } else {
      this.setStatus({ state: 'Server Starting', reason, host: wish.host, port: wish.port });
    }
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.wish === wish) void this.apply(wish);
    }, this.retryDelay);
    this.retryDelay = Math.min(this.retryDelay * 2, RETRY_MAX_MS);
  }

  private clearRetry(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  /** Closes the listen socket; retiring the live app makes it close its kept-alive connections. */
  private unbind(): void {
    if (this.serving) this.uws.us_listen_socket_close(this.serving.socket);
    this.serving = null;
    this.liveApp = 0;
  }

  private requestFinished(): void {
    this.inflight--;
    if (this.inflight === 0 && this.drainWaiters.length > 0) {
      const waiters = this.drainWaiters;
      this.drainWaiters = [];
      for (const w of waiters) w();
    }
  }

  private setStatus(s: ListenerStatus): void {
    const prev = this.current;
    this.current = s;
    if (prev.state !== s.state || prev.reason !== s.reason || prev.host !== s.host || prev.port !== s.port) this.onStatus(s);
  }
}

function endpoint(wish: ListenWish): string {
  const at = wish.address === wish.host ? wish.host : `${wish.host} (${wish.address})`;
  return `${at}:${wish.port}`;
}

/** IPv4-mapped IPv6 addresses are IPv4 to the kernel's bind conflict check. */
function plain(address: string): string {
  return address.toLowerCase().startsWith('::ffff:') && isIPv4(address.slice(7)) ? address.slice(7) : address;
}

/**
 * Whether two binds on one port contend in the kernel: the same address, or a wildcard covering the other
 * (uWS opens `::` dual-stack, so it covers IPv4 too).
 */
function overlaps(a: { address: string; port: number }, b: { address: string; port: number }): boolean {
  if (a.port !== b.port) return false;
  const x = plain(a.address);
  const y = plain(b.address);
  if (x === y || x === '::' || y === '::') return true;
  return (x === '0.0.0.0' && isIPv4(y)) || (y === '0.0.0.0' && isIPv4(x));
}

const BIND_ERRORS: Record<string, string> = {
  EADDRINUSE: 'address already in use',
  EADDRNOTAVAIL: 'address not available',
  EACCES: 'permission denied',
};

/**
 * uWS binds with SO_REUSEPORT, so a second server on the same port would silently share its traffic.
 * A plain exclusive bind first tells whether anyone else holds the port.
 */
function portIsFree(host: string, port: number): Promise<true | string> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => resolve(BIND_ERRORS[err.code ?? ''] ?? err.code ?? err.message));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}
