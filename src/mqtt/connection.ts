// One mqtt client to the show's broker and what GET /show says of it: connected, since when, the last error and
// the reconnects. The package reconnects by itself; the wait between tries grows (its reconnectPeriod, doubled per
// try up to a ceiling) and starts small again once connected. Errors are logged once per change, so a broker that
// stays down costs one line, not one per try.
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { SHOW_LIMITS } from '../limits.js';
import type { Logger } from '../log.js';

export interface BrokerStatus {
  /** The broker URL without credentials. */
  url: string;
  connected: boolean;
  /** When `connected` last changed (ISO); null before the first try ends. */
  since: string | null;
  /** The last error (kept after a reconnect, as history); null while none happened. */
  lastError: string | null;
  /** Tries to connect again after a loss or a refusal. */
  reconnects: number;
}

export interface ConnectionEvents {
  /** Connected (again): subscribe and publish what the broker should hold. */
  connected(): void;
  message(topic: string, payload: Buffer, retained: boolean): void;
}

/** How an error reads in GET /show: a refused login says so plainly, a socket error by its message. */
function describe(err: Error): string {
  const text = err.message.slice(0, 200);
  return /not authori[sz]ed|bad user ?name or password/i.test(text) ? `not authorized (${text})` : text;
}

export class BrokerConnection {
  private client: MqttClient | null = null;
  private period: number = SHOW_LIMITS.reconnectMinMs;
  private readonly state: BrokerStatus;
  private loggedError: string | null = null;

  /** Whether an error came since the last connect (a lost connection without one records the loss itself). */
  private erroredSinceConnect = false;

  constructor(
    private readonly url: string,
    shownUrl: string,
    private readonly log: Logger,
    private readonly events: ConnectionEvents,
  ) {
    this.state = { url: shownUrl, connected: false, since: null, lastError: null, reconnects: 0 };
  }

  status(): BrokerStatus {
    return { ...this.state };
  }

  get connected(): boolean {
    return this.client?.connected === true;
  }

  open(options: IClientOptions): void {
    const client = mqtt.connect(this.url, options);
    this.client = client;
    client.on('connect', () => {
      this.period = SHOW_LIMITS.reconnectMinMs;
      client.options.reconnectPeriod = this.period;
      this.mark(true);
      this.log.info({ url: this.state.url }, 'show broker connected');
      this.loggedError = null;
      this.erroredSinceConnect = false;
      this.events.connected();
    });
    client.on('close', () => {
      if (this.state.connected) {
        // A broker that goes away may say nothing (the client keeps refused reconnects to itself): the loss is the error.
        if (!this.erroredSinceConnect) this.state.lastError = 'connection to the broker lost';
        this.mark(false);
        this.log.warn({ url: this.state.url }, 'show broker connection lost; reconnecting');
      } else if (this.state.since === null) this.mark(false);
    });
    client.on('reconnect', () => {
      this.state.reconnects++;
      // Read by the package when it sets up the next wait, after this try fails.
      this.period = Math.min(this.period * 2, SHOW_LIMITS.reconnectMaxMs);
      client.options.reconnectPeriod = this.period;
    });
    client.on('error', (err) => this.error(err));
    client.on('message', (topic, payload, packet) => this.events.message(topic, payload, packet.retain === true));
  }

  /** Records a failure that stops the link before a client exists (a password file that cannot be read). */
  failed(message: string): void {
    this.state.lastError = message;
    this.log.error({ url: this.state.url, err: message }, 'show link not started');
  }

  /** Subscribes with QoS 1, each message keeping the retain flag it was published with (MQTT 5 "retain as published"). */
  subscribe(filters: string[]): void {
    this.client?.subscribe(filters, { qos: 1, rap: true }, (err) => {
      if (err) this.error(err);
    });
  }

  /** Sends when connected; false (nothing queued) otherwise. */
  publish(topic: string, payload: string | Buffer, opts: { retain: boolean; qos: 0 | 1 }): boolean {
    const client = this.client;
    if (!client?.connected) return false;
    client.publish(topic, payload, { qos: opts.qos, retain: opts.retain }, (err) => {
      if (err) this.error(err);
    });
    return true;
  }

  /** Ends the connection after what is in flight (a final publish included) is sent. */
  close(): void {
    this.client?.end(false);
    this.client = null;
  }

  private mark(connected: boolean): void {
    this.state.connected = connected;
    this.state.since = new Date().toISOString();
  }

  private error(err: Error): void {
    const text = describe(err);
    this.erroredSinceConnect = true;
    this.state.lastError = text;
    if (text === this.loggedError) return;
    this.loggedError = text;
    this.log.warn({ url: this.state.url, err: text }, 'show broker error');
  }
}
