// The HTTP listener's lifecycle: Server Running / Starting / Disabled, rebinding on settings changes,
// closing the connections of a retired listener, and draining in-flight requests on shutdown.
import { createServer } from 'node:net';
import type { Logger } from '../log.js';
import { mountRouter, type RequestPolicy } from './adapter.js';
import type { Router } from './router.js';
import type { TemplatedApp, us_listen_socket, Uws } from './uws.js';

export type ServerState = 'Server Running' | 'Server Starting' | 'Server Disabled';

export interface ListenWish {
  enabled: boolean;
  host: string;
  port: number;
  /** Null when a valid license is held; otherwise why the server may not run. */
  licenseProblem: string | null;
}

export interface ListenerStatus {
  state: ServerState;
  /** Why the server is not running (disabled switch, license, bind failure); null while running. */
  reason: string | null;
  host: string;
  port: number;
}

const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 5000;

export class HttpListener {
  private socket: us_listen_socket | null = null;
  private generation = 0;
  private bound: { host: string; port: number } | null = null;
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
    this.chain = this.chain.then(() => this.reconcile()).catch((err: unknown) => {
      this.log.error({ err }, 'listener reconcile failed');
    });
    return this.chain;
  }

  /** Stops accepting, closes the listen socket, and waits (bounded) for in-flight requests. */
  async close(drainMs: number): Promise<void> {
    this.wish = { enabled: false, host: '', port: 0, licenseProblem: null };
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
    if (!wish.enabled || wish.licenseProblem !== null) {
      if (this.bound) this.log.info({ host: this.bound.host, port: this.bound.port }, 'listener closed');
      this.unbind();
      const reason = !wish.enabled ? 'server.enabled is false' : `no valid license: ${wish.licenseProblem}`;
      this.setStatus({ state: 'Server Disabled', reason, host: wish.host, port: wish.port });
      return;
    }
    if (this.bound && this.bound.host === wish.host && this.bound.port === wish.port) {
      this.setStatus({ state: 'Server Running', reason: null, host: wish.host, port: wish.port });
      return;
    }
    this.unbind();
    this.setStatus({ state: 'Server Starting', reason: null, host: wish.host, port: wish.port });
    const free = await portIsFree(wish.host, wish.port);
    if (this.wish !== wish) return; // superseded while probing
    if (free !== true) {
      this.scheduleRetry(wish, `cannot listen on ${wish.host}:${wish.port}: ${free}`);
      return;
    }
    const gen = ++this.generation;
    const app: TemplatedApp = this.uws.App();
    mountRouter(app, this.router, {
      ...this.policy,
      log: this.log,
      isLive: () => gen === this.generation,
      started: () => {
        this.inflight++;
      },
      finished: () => this.requestFinished(),
    });
    const socket = await new Promise<us_listen_socket | false>((resolve) => app.listen(wish.host, wish.port, resolve));
    if (!socket) {
      this.generation++;
      this.scheduleRetry(wish, `cannot listen on ${wish.host}:${wish.port}`);
      return;
    }
    this.socket = socket;
    this.bound = { host: wish.host, port: wish.port };
    this.retryDelay = RETRY_MIN_MS;
    this.setStatus({ state: 'Server Running', reason: null, host: wish.host, port: wish.port });
  }

  private scheduleRetry(wish: ListenWish, reason: string): void {
    this.log.error({ host: wish.host, port: wish.port, retryInMs: this.retryDelay }, reason);
    this.setStatus({ state: 'Server Starting', reason, host: wish.host, port: wish.port });
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

  /** Closes the listen socket; bumping the generation makes the old app close its kept-alive connections. */
  private unbind(): void {
    if (this.socket) this.uws.us_listen_socket_close(this.socket);
    this.socket = null;
    this.bound = null;
    this.generation++;
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

/**
 * uWS binds with SO_REUSEPORT, so a second server on the same port would silently share its traffic.
 * A plain exclusive bind first tells whether anyone else holds the port.
 */
function portIsFree(host: string, port: number): Promise<true | string> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'EADDRINUSE' ? 'address already in use' : (err.code ?? err.message)));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}
