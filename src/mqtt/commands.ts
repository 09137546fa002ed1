// Commands heard on the show's cmd topics, applied through the one dispatch as any desk's requests are (trusted, not
// waiting for the disk), one at a time in arrival order with a bounded backlog, each answered on its reply topic.
// A retained command is never applied: a broker replays retained messages to every new subscriber, so a command
// left retained would fire again at each box's next connect.
import type { NeutralRequest } from '../http/dispatch.js';
import { SHOW_LIMITS } from '../limits.js';
import type { Logger } from '../log.js';
import { SerialQueue } from '../transports/queue.js';
import type { Dispatch } from '../transports/request.js';
import { parseCommand, type Command } from './command.js';
import type { Counters } from './counters.js';

/** Sends a reply payload to the reply topic of command `id`. */
export type ReplySink = (id: string, payload: string) => void;

/** The route codes of a path no route serves: counted apart from a route's own refusals. */
const UNKNOWN_ROUTE = new Set(['NOT_FOUND', 'METHOD_NOT_ALLOWED']);

/** A reply's pre-serialized JSON as a value (routes answer either way). */
function jsonOf(text: string | Uint8Array | undefined): unknown {
  if (text === undefined) return null;
  return JSON.parse(typeof text === 'string' ? text : Buffer.from(text).toString('utf8'));
}

export class Commands {
  private readonly queue: SerialQueue;

  constructor(
    private readonly box: string,
    private readonly dispatch: Dispatch,
    private readonly counters: Counters,
    private readonly reply: ReplySink,
    log: Logger,
  ) {
    this.queue = new SerialQueue(SHOW_LIMITS.pendingMax, (err) => log.error({ err }, 'show command failed'));
  }

  receive(topic: string, payload: Buffer, retained: boolean): void {
    this.counters.counts.received++;
    if (retained) return this.counters.refuse('retainedIgnored', topic, 'a retained command is never applied');
    const parsed = parseCommand(payload);
    if (!parsed.ok) {
      this.counters.refuse(parsed.kind, topic, parsed.reason);
      if (parsed.id !== undefined) this.answer(parsed.id, 400, { error: true, code: 'INVALID_REQUEST', message: parsed.reason });
      return;
    }
    const { command } = parsed;
    if (!this.queue.push(() => this.apply(topic, command))) this.counters.refuse('dropped', topic, 'the command backlog is full');
  }

  private async apply(topic: string, command: Command): Promise<void> {
    // `at` is the scheduled-operations field of a request; passed on as it came, for the dispatch to check.
    const req: NeutralRequest = { method: 'POST', path: command.path, trusted: true, awaitDurable: false, transport: 'mqtt' };
    if (command.body !== undefined) req.body = command.body;
    if (command.at !== undefined) req.at = command.at;
    const reply = await this.dispatch(req);
    const body = reply.json ?? jsonOf(reply.jsonText);
    if (reply.status < 300) this.counters.counts.applied++;
    else {
      const code = (body as { code?: unknown } | null)?.code;
      const kind = typeof code === 'string' && UNKNOWN_ROUTE.has(code) ? 'unknownRoute' : 'refused';
      const message = (body as { message?: unknown } | null)?.message;
      this.counters.refuse(kind, topic, `${command.path.slice(0, 200)}: ${reply.status} ${typeof message === 'string' ? message : ''}`);
    }
    this.answer(command.id, reply.status, body);
  }

  private answer(id: string, status: number, body: unknown): void {
    const text = JSON.stringify({ id, box: this.box, status, body });
    // A route's answer larger than a reply may be goes out without its body (the status still tells what happened).
    this.reply(id, Buffer.byteLength(text) <= SHOW_LIMITS.replyMaxBytes ? text : JSON.stringify({ id, box: this.box, status, body: null }));
  }
}
