// OSC over UDP (osc.js for the wire format, node:dgram for the socket): messages and bundles become requests
// through the shared dispatch, applied in order; state changes go back out as feedback. No packet can crash or
// stall the server: decoding is bounded and guarded, work is serialized per packet, bad input is logged rate-limited.
import { createSocket, type Socket } from 'node:dgram';
import { createRequire } from 'node:module';
import { OSC_LIMITS } from '../limits.js';
import type { Logger } from '../log.js';
import type { NeutralReply, NeutralRequest } from '../http/dispatch.js';
import type { StateBus } from '../events/bus.js';
import { feedbackFor, inputFeedback, mapMessage, type Mapped, type OscArg, type OscMessage } from './addresses.js';

const require = createRequire(import.meta.url);
// osc.js ships CommonJS without types; only its pure packet codec is used.
const osc = require('osc') as {
  readPacket(data: Uint8Array, options: { metadata: boolean; unpackSingleArgs?: boolean }): unknown;
  writePacket(packet: unknown, options?: { metadata: boolean }): Uint8Array;
};

export interface OscSettings {
  enabled: boolean;
  host: string;
  port: number;
  feedback: Array<{ host: string; port: number }>;
  replyToSender: boolean;
}

export interface OscStats {
  listening: boolean;
  host: string;
  port: number;
  packets: number;
  applied: number;
  rejected: number;
}

export class OscServer {
  private socket: Socket | null = null;
  private lastSender: { address: string; port: number } | null = null;
  private readonly counts = { packets: 0, applied: 0, rejected: 0 };
  /** Per source and address: when it was last logged, so a flood costs one line per 10 s. */
  private readonly logged = new Map<string, number>();
  private queue: Promise<void> = Promise.resolve();
  private pending = 0;
  /** Per chain position: the item (with inputs) last sent as feedback. */
  private sentInputs = new Map<number, string>();

  constructor(
    private readonly settings: OscSettings,
    private readonly dispatch: (req: NeutralRequest) => Promise<NeutralReply>,
    private readonly bus: StateBus,
    private readonly log: Logger,
  ) {
    bus.listen((topic, text) => this.feedback(topic, text));
  }

  /** Whether state changes are sent anywhere (the bus reads topics only while someone listens). */
  get sendsFeedback(): boolean {
    return this.socket !== null && (this.settings.feedback.length > 0 || (this.settings.replyToSender && this.lastSender !== null));
  }

  get version(): number {
    return this.counts.packets + this.counts.applied * 3 + this.counts.rejected * 5 + (this.socket ? 1e9 : 0);
  }

  get listening(): boolean {
    return this.socket !== null;
  }

  stats(): OscStats {
    return { listening: this.socket !== null, host: this.settings.host, port: this.settings.port, ...this.counts };
  }

  start(): Promise<void> {
    if (!this.settings.enabled) return Promise.resolve();
    const family = this.settings.host.includes(':') ? 'udp6' : 'udp4';
    const socket = createSocket({ type: family, reuseAddr: false });
    return new Promise((resolve) => {
      socket.once('error', (err) => {
        this.log.error({ host: this.settings.host, port: this.settings.port, err: err.message }, 'OSC could not listen; OSC control is off');
        socket.close();
        resolve();
      });
      socket.bind(this.settings.port, this.settings.host, () => {
        socket.removeAllListeners('error');
        socket.on('error', (err) => this.log.warn({ err: err.message }, 'OSC socket error'));
        socket.on('message', (data, rinfo) => this.receive(data, rinfo));
        this.socket = socket;
        this.log.info({ host: this.settings.host, port: this.settings.port, feedback: this.settings.feedback.length }, 'OSC listening (no authentication)');
        resolve();
      });
    });
  }

  stop(): void {
    this.socket?.close();
    this.socket = null;
  }

  private receive(data: Buffer, from: { address: string; port: number }): void {
    this.counts.packets++;
    const source = `${from.address}:${from.port}`;
    if (data.byteLength > OSC_LIMITS.packetMaxBytes) return this.reject(source, '(packet)', `packet of ${data.byteLength} bytes is larger than ${OSC_LIMITS.packetMaxBytes}`);
    let packet: unknown;
    try {
      packet = osc.readPacket(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), { metadata: true, unpackSingleArgs: false });
    } catch (err) {
      return this.reject(source, '(packet)', `not an OSC packet: ${(err as Error).message.slice(0, 120)}`);
    }
    const messages: OscMessage[] = [];
    if (!flatten(packet, messages, 0)) return this.reject(source, '(bundle)', `a bundle holds more than ${OSC_LIMITS.bundleMaxMessages} messages or nests too deep`);
    if (this.settings.replyToSender) this.lastSender = from;
    // A flood must not queue without bound: packets beyond a small backlog are dropped (and counted).
    if (this.pending > 256) return this.reject(source, '(packet)', 'too many packets waiting; dropped');
    this.pending++;
    this.queue = this.queue
      .then(() => this.apply(source, messages))
      .catch((err: unknown) => this.log.error({ err }, 'OSC packet failed'))
      .finally(() => {
        this.pending--;
      });
  }

  /** Messages of one packet (a bundle's in order), each through the dispatch; a failing one does not stop the rest. */
  private async apply(source: string, messages: OscMessage[]): Promise<void> {
    for (const msg of messages) {
      let mapped: Mapped = mapMessage(msg);
      for (let hop = 0; hop < 2 && mapped.kind === 'request'; hop++) {
        const reply = await this.dispatch({ method: mapped.method, path: mapped.path, body: mapped.body, trusted: true, awaitDurable: false });
        if (reply.status >= 300) {
          const body = reply.json as { message?: string } | undefined;
          mapped = { kind: 'bad', reason: `${reply.status} ${body?.message ?? ''}`.trim() };
          break;
        }
        if (!mapped.then) {
          this.counts.applied++;
          mapped = { kind: 'ignore' };
          break;
        }
        mapped = mapped.then(reply.json);
      }
      if (mapped.kind === 'bad') this.reject(source, msg.address, mapped.reason);
    }
  }

  private reject(source: string, address: string, reason: string): void {
    this.counts.rejected++;
    const key = `${source}|${address.slice(0, 200)}`;
    const now = Date.now();
    const last = this.logged.get(key);
    if (last !== undefined && now - last < OSC_LIMITS.logEveryMs) return;
    if (this.logged.size > 1024) this.logged.clear();
    this.logged.set(key, now);
    this.log.warn({ from: source, address: address.slice(0, 200), reason }, 'OSC message ignored');
  }

  private feedback(topic: string, text: string): void {
    if (!this.sendsFeedback) return;
    if (topic === 'params') return this.paramsFeedback(JSON.parse(text));
    this.sendMessages(feedbackFor(topic, JSON.parse(text)), topic);
  }

  /**
   * Input values of the items whose inputs changed since the last feedback, one bundle per item: a fader move
   * sends that effect's values, not the whole chain's (which could outgrow a datagram).
   */
  private paramsFeedback(data: unknown): void {
    const items = (data as { items?: unknown[] } | null)?.items ?? [];
    const seen = new Map<number, string>();
    for (const item of items) {
      const index = (item as { index?: unknown }).index;
      if (typeof index !== 'number') continue;
      const text = JSON.stringify(item);
      seen.set(index, text);
      if (this.sentInputs.get(index) !== text) this.sendMessages(inputFeedback(item), 'params');
    }
    this.sentInputs = seen;
  }

  private sendMessages(messages: OscMessage[], topic = 'effects'): void {
    const socket = this.socket;
    if (!socket || messages.length === 0) return;
    const targets = [...this.settings.feedback];
    if (this.settings.replyToSender && this.lastSender) targets.push({ host: this.lastSender.address, port: this.lastSender.port });
    if (targets.length === 0) return;
    let bytes: Uint8Array;
    try {
      bytes = osc.writePacket({ timeTag: { raw: [0, 1] }, packets: messages }, { metadata: true });
    } catch (err) {
      return void this.log.error({ err, topic }, 'OSC feedback could not be encoded');
    }
    for (const t of targets) socket.send(bytes, t.port, t.host, () => undefined);
  }
}

/** Flattens bundles (in order) into messages; false when the packet holds too many or nests too deep. */
function flatten(packet: unknown, out: OscMessage[], depth: number): boolean {
  if (depth > 4 || typeof packet !== 'object' || packet === null) return false;
  const p = packet as { address?: unknown; args?: unknown; packets?: unknown };
  if (Array.isArray(p.packets)) {
    for (const inner of p.packets) if (!flatten(inner, out, depth + 1)) return false;
    return true;
  }
  if (typeof p.address !== 'string') return false;
  if (out.length >= OSC_LIMITS.bundleMaxMessages) return false;
  out.push({ address: p.address, args: Array.isArray(p.args) ? (p.args as OscArg[]) : [] });
  return true;
}
