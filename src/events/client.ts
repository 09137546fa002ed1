// The state one events socket carries (uWS user data): credentials, place, subscription, sequence and flow control.
import type { WebSocket } from 'uWebSockets.js';
import type { ApiKeyGuard } from '../http/auth.js';

export interface Client {
  /** Credentials as sent (upgrade headers or the auth message); re-checked on every request. */
  apiKey: string;
  authorization: string;
  authed: boolean;
  /** Credentials were sent on the upgrade and are wrong: closed 4401 on open. */
  badCredentials: boolean;
  admitted: boolean;
  closed: boolean;
  topics: Set<string>;
  seq: number;
  /** The queue was dropped (backpressure); a fresh hello goes out once it drains. */
  resync: boolean;
  /** Its hello is out: events before it would arrive ahead of the state they change. */
  ready: boolean;
  lastHeard: number;
  /** Its requests still waiting for their answer (capped by EVENT_LIMITS.requestsInFlight). */
  inFlight: number;
  authTimer: NodeJS.Timeout | null;
  /** Remote address: sockets waiting to authenticate have a bounded number of places per address. */
  address: string;
  ws: WebSocket<Client> | null;
  /** False once its listener was retired (rebind, disable, shutdown): the connection is closed at its next send or ping. */
  isLive: () => boolean;
}

/** A client as its upgrade left it: authenticated by its headers (or by no key being set), or still to be. */
export function newClient(
  apiKey: string,
  authorization: string,
  guard: ApiKeyGuard,
  topics: readonly string[],
  address: string,
  isLive: () => boolean,
): Client {
  const sent = apiKey !== '' || authorization !== '';
  const ok = guard.check(apiKey, authorization);
  return {
    apiKey,
    authorization,
    authed: ok && (sent || !guard.enabled),
    badCredentials: sent && !ok,
    admitted: false,
    closed: false,
    topics: new Set(topics),
    seq: 0,
    resync: false,
    ready: false,
    lastHeard: Date.now(),
    inFlight: 0,
    authTimer: null,
    address,
    ws: null,
    isLive,
  };
}
