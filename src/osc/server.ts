// OSC over UDP (node:dgram; the strict reader in wire.ts, osc.js only to write feedback): messages and bundles become
// requests through the shared dispatch, applied in order; state changes go back out as feedback. No packet can crash
// or stall the server: packets are budgeted per sender before they are read, reading is one bounded pass, work is
// serialized per packet, and bad input is logged within a per-sender and global budget.
import { createSocket, type Socket } from 'node:dgram';
import { createRequire } from 'node:module';
import { OSC_LIMITS } from '../limits.js';
import type { Logger } from '../log.js';
import { isLoopbackHost } from '../util/network.js';
import type { OscMessage } from '../transports/addresses/args.js';
import { feedbackFor, inputFeedback } from '../transports/addresses/feedback.js';
import { mapMessage, type OscLookup } from '../transports/addresses/table.js';
import { LogBudget, WindowBudget } from '../transports/budgets.js';
import { SerialQueue } from '../transports/queue.js';
import { refusal, send, type Dispatch } from '../transports/request.js';
import type { FeedbackBus, Transport } from '../transports/transport.js';
import { readPacket } from './wire.js';

const require = createRequire(import.meta.url);
// osc.js ships CommonJS without types; only its packet writer is used (for feedback).
const osc = require('osc') as {
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
  dropped: number;
  malformed: number;
  replyDropped: number;
  restricted: string | null;
}

/** Backlog of packets waiting to be applied; past it a packet is dropped (and counted). */
const PENDING_MAX = 256;

export class OscServer implements Transport {
  private socket: Socket | null = null;
  private lastSender: { address: string; port: number } | null = null;
  private readonly counts = { packets: 0, applied: 0, rejected: 0, dropped: 0, malformed: 0, replyDropped: 0 };
  private readonly logBudget = new LogBudget();
  private readonly packetBudget = new WindowBudget(1000, OSC_LIMITS.packetsPerSenderPerSecond, OSC_LIMITS.packetsPerSecond);
  private readonly replyBudget = new WindowBudget(1000, OSC_LIMITS.replyPacketsPerSecond, OSC_LIMITS.replyPacketsPerSecond);
  /** Why OSC was moved to loopback while running (a reload that set an API key without osc.allowRemote); else null. */
  private restricted: string | null = null;
  private readonly settings: OscSettings;
  private readonly queue: SerialQueue;
  /** When the levels last went out: they are sent at most OSC_LIMITS.audioFeedbackPerSecond times a second. */
  private audioSentAt = 0;
  /** Per chain position: the item (with inputs) last sent as feedback. */
  private sentInputs = new Map<number, string>();
  /** The show feedback last sent (JSON of its messages). */
  private sentShow = '';

  constructor(
    settings: OscSettings,
    private readonly dispatch: Dispatch,
    private readonly log: Logger,
    private readonly lookup: OscLookup,
  ) {
    this.settings = { ...settings };
    this.queue = new SerialQueue(PENDING_MAX, (err) => this.log.error({ err }, 'OSC packet failed'));
  }

  /** Whether state changes are sent anywhere (the bus reads topics only while someone listens). */
  get sendsFeedback(): boolean {
    return this.socket !== null && (this.settings.feedback.length > 0 || (this.settings.replyToSender && this.lastSender !== null));
  }

  /** The streamed topics that exist for feedback alone (and the polled `show`): read only while feedback goes somewhere. */
  wantsTopic(topic: string): boolean {
    return (
      (topic === 'audio' || topic === 'tempo' || topic === 'transport' || topic === 'show' || topic === 'cues' || topic === 'timecode') &&
      this.sendsFeedback
    );
  }

  get version(): number {
    const c = this.counts;
    return (
      c.packets +
      c.applied * 3 +
      c.rejected * 5 +
      c.dropped * 7 +
      c.replyDropped * 11 +
      (this.restricted ? 1e8 : 0) +
      (this.socket ? 1e9 : 0)
    );
  }

  features(): string[] {
    return this.socket ? ['osc'] : [];
  }

  stats(): OscStats {
    return {
      listening: this.socket !== null,
      host: this.settings.host,
      port: this.settings.port,
      ...this.counts,
      restricted: this.restricted,
    };
  }

  start(bus: FeedbackBus): Promise<void> {
    bus.listen((topic, text) => this.feedback(topic, text));
    return this.bind();
  }

  private bind(): Promise<void> {
    if (!this.settings.enabled) return Promise.resolve();
    const family = this.settings.host.includes(':') ? 'udp6' : 'udp4';
    const socket = createSocket({ type: family, reuseAddr: false });
    return new Promise((resolve) => {
      socket.once('error', (err) => {
        this.log.error(
          { host: this.settings.host, port: this.settings.port, err: err.message },
          'OSC could not listen; OSC control is off',
        );
        socket.close();
        resolve();
      });
      socket.bind(this.settings.port, this.settings.host, () => {
        socket.removeAllListeners('error');
        socket.on('error', (err) => this.log.warn({ err: err.message }, 'OSC socket error'));
        socket.on('message', (data, rinfo) => this.receive(data, rinfo));
        this.socket = socket;
        this.log.info(
          { host: this.settings.host, port: this.settings.port, feedback: this.settings.feedback.length },
          'OSC listening (no authentication)',
        );
        resolve();
      });
    });
  }

  stop(): void {
    this.socket?.close();
    this.socket = null;
  }

  /**
   * Moves OSC to loopback, so local controllers keep working while the network loses unauthenticated control, and
   * keeps the reason for GET /status (`osc.restricted`) until the next restart.
   */
  async restrictToLoopback(reason: string): Promise<void> {
    this.restricted = reason;
    if (isLoopbackHost(this.settings.host)) return;
    this.settings.host = this.settings.host.includes(':') ? '::1' : '127.0.0.1';
    const socket = this.socket;
    if (!socket) return;
    this.socket = null;
    // The port is free again only once the old socket is closed.
    await new Promise<void>((resolve) => socket.close(() => resolve()));
    await this.bind();
  }

  private receive(data: Buffer, from: { address: string; port: number }): void {
    this.counts.packets++;
    // Budgeted per sender address (not port, which a sender picks freely) before a byte of the packet is read.
    if (!this.packetBudget.take(from.address)) {
      this.counts.dropped++;
      return;
    }
    if (data.byteLength > OSC_LIMITS.packetMaxBytes)
      return this.refuse(from, '(packet)', `packet of ${data.byteLength} bytes is larger than ${OSC_LIMITS.packetMaxBytes}`);
    const read = readPacket(data);
    if (!read.ok) return this.refuse(from, '(packet)', read.reason);
    // A flood must not queue without bound: packets beyond a small backlog are dropped (and counted).
    if (!this.queue.push(() => this.apply(from, read.messages))) this.counts.dropped++;
  }

  /** Messages of one packet (a bundle's in order), each one request through the dispatch; a failing one does not stop the rest. */
  private async apply(from: { address: string; port: number }, messages: OscMessage[]): Promise<void> {
    for (const msg of messages) {
      const mapped = mapMessage(msg, this.lookup);
      if (mapped.kind === 'ignore') continue;
      if (mapped.kind === 'bad') {
        this.reject(from, msg.address, mapped.reason);
        continue;
      }
      // Feedback follows only a sender of a valid /vjd request (set before it applies, so it hears its own change),
      // and returns to the previous one if the route refuses it: a stray packet cannot redirect it.
      const previous = this.lastSender;
      if (this.settings.replyToSender) this.lastSender = { address: from.address, port: from.port };
      const why = refusal(await send(this.dispatch, mapped.path, mapped.body));
      if (why === null) {
        this.counts.applied++;
        continue;
      }
      if (this.settings.replyToSender) this.lastSender = previous;
      this.reject(from, msg.address, why);
    }
  }

  /** A packet refused unread: its structure or type tags are not something vjd takes. */
  private refuse(from: { address: string; port: number }, what: string, reason: string): void {
    this.counts.malformed++;
    this.reject(from, what, reason);
  }

  private reject(from: { address: string; port: number }, address: string, reason: string): void {
    this.counts.rejected++;
    const suppressed = this.logBudget.take(from.address);
    if (suppressed === null) return;
    this.log.warn({ from: `${from.address}:${from.port}`, address: address.slice(0, 200), reason, suppressed }, 'OSC message ignored');
  }

  private feedback(topic: string, text: string): void {
    if (!this.sendsFeedback) return;
    if (topic === 'params') return this.paramsFeedback(JSON.parse(text));
    if (topic === 'show') return this.showFeedback(JSON.parse(text));
    if (topic === 'audio') {
      const now = Date.now();
      if (now - this.audioSentAt < 1000 / OSC_LIMITS.audioFeedbackPerSecond) return;
      this.audioSentAt = now;
    }
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

  /** The show's four values, sent only when one of them changed (the topic also changes with every box heard). */
  private showFeedback(data: unknown): void {
    const messages = feedbackFor('show', data);
    const text = JSON.stringify(messages);
    if (text === this.sentShow) return;
    this.sentShow = text;
    this.sendMessages(messages, 'show');
  }

  private sendMessages(messages: OscMessage[], topic = 'effects'): void {
    const socket = this.socket;
    if (!socket || messages.length === 0) return;
    const targets = [...this.settings.feedback];
    if (this.settings.replyToSender && this.lastSender) {
      if (this.replyBudget.take('reply')) targets.push({ host: this.lastSender.address, port: this.lastSender.port });
      else this.counts.replyDropped++;
    }
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
