// MIDI controllers: every message (from a device port, or given to `receive` directly) is budgeted per port, read
// strictly, and mapped to OSC addresses whose requests go through the shared dispatch in order; state changes from
// any transport go back out as feedback; MIDI clock can drive the tempo; learn binds the next message.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { MidiConfig, MidiMapping } from '../config/desks.js';
import { ApiError } from '../errors.js';
import { API_PREFIX } from '../http/route.js';
import { MIDI_LIMITS } from '../limits.js';
import type { Logger } from '../log.js';
import type { OscMessage } from '../transports/addresses/args.js';
import { feedbackFor, inputFeedback } from '../transports/addresses/feedback.js';
import { mapMessage, type OscLookup } from '../transports/addresses/table.js';
import { LogBudget, WindowBudget } from '../transports/budgets.js';
import { SerialQueue } from '../transports/queue.js';
import { refusal, send, type Dispatch } from '../transports/request.js';
import type { FeedbackBus, Transport } from '../transports/transport.js';
import { DirWatch } from '../util/dir-watch.js';
import { LatencyRing } from '../util/latency-ring.js';
import { MidiDevices } from './devices.js';
import { checkMappings, LEARNED_FILE, type MappingProblem, readLearned, readMappingFiles, saveLearned } from './files.js';
import { MidiMapper } from './mapper.js';
import { readMidi, type MidiEvent } from './parse.js';
import { MidiClock } from './clock.js';
import { MtcAssembler, readMtcFullFrame } from './mtc.js';
import type { TimecodeSink } from '../timecode/sink.js';
import { toFrames } from '../shared/smpte.js';
import { clockNow } from '../shared/tempo-block.js';

export type LearnSpec = Pick<MidiMapping, 'to' | 'arg' | 'mode' | 'feedback'>;

/** Messages waiting to be applied; past it a message is dropped (and counted). */
const PENDING_MAX = 256;
/** Mappings left out that GET /midi lists (the log has every one). */
const PROBLEMS_SHOWN = 64;

export class MidiService implements Transport {
  readonly devices: MidiDevices;
  private readonly mapper = new MidiMapper();
  private readonly counts = { received: 0, applied: 0, rejected: 0, malformed: 0, dropped: 0, feedbackSent: 0 };
  private readonly budget = new WindowBudget(1000, MIDI_LIMITS.messagesPerPortPerSecond, MIDI_LIMITS.messagesPerSecond);
  private readonly feedbackBudget = new WindowBudget(1000, MIDI_LIMITS.feedbackPerSecond, MIDI_LIMITS.feedbackPerSecond);
  private readonly logBudget = new LogBudget();
  private readonly recent: Array<{ port: string | null; bytes: number[] }> = [];
  private readonly configMappings: MidiMapping[];
  private readonly configProblems: MappingProblem[];
  private fileMappings: MidiMapping[] = [];
  private fileProblems: MappingProblem[] = [];
  private learned: MidiMapping[] = [];
  private learnedProblems: MappingProblem[] = [];
  /** Where a learned.json that was not read whole was renamed to at start. */
  private learnedSetAside: string | null = null;
  private learnedWritable = true;
  private reloading: Promise<void> = Promise.resolve();
  private learning: { spec: LearnSpec; done: (m: MidiMapping | null) => void } | null = null;
  private readonly queue: SerialQueue;
  private readonly midiClock = new MidiClock();
  /** One MTC assembler per port (a few at most), so two senders' quarter frames never mix. */
  private readonly mtcAssemblers = new Map<string, MtcAssembler>();
  private watch: DirWatch | null = null;
  private readonly dir: string;
  /** From a message's arrival to the reply of its last request. */
  private readonly applyMs = new LatencyRing(256);

  constructor(
    private readonly config: MidiConfig,
    dataDir: string,
    private readonly dispatch: Dispatch,
    private readonly log: Logger,
    private readonly lookup: OscLookup,
    /** Where MTC goes (timecode.source "mtc"), and the one port read for it (null: any). */
    private readonly timecode: { sink: TimecodeSink; port: string | null } | null = null,
  ) {
    this.queue = new SerialQueue(PENDING_MAX, (err) => this.log.error({ err }, 'MIDI message failed'));
    this.dir = join(dataDir, 'midi');
    this.devices = new MidiDevices(config.ports, config.clock, (port, bytes) => this.receive(port, bytes), log, timecode !== null);
    ({ mappings: this.configMappings, problems: this.configProblems } = checkMappings(config.mappings, 'config'));
    this.remap();
  }

  /** Whether state changes are turned into feedback (the bus reads topics only while someone listens). */
  get sendsFeedback(): boolean {
    return this.config.enabled && this.mapper.hasFeedback;
  }

  wantsTopic(topic: string): boolean {
    return this.sendsFeedback && this.mapper.list.some((m) => m.feedback === true && m.to.startsWith(`/vjd/${topic}/`));
  }

  features(): string[] {
    return this.config.enabled ? ['midi'] : [];
  }

  async start(bus: FeedbackBus): Promise<void> {
    bus.listen((topic, text) => this.feedback(topic, text));
    if (!this.config.enabled) return;
    this.report(this.configProblems);
    const learned = await readLearned(this.dir);
    this.report(learned.problems);
    ({ mappings: this.learned, problems: this.learnedProblems, keptAs: this.learnedSetAside, writable: this.learnedWritable } = learned);
    if (learned.keptAs !== null)
      this.log.warn(
        { file: LEARNED_FILE, keptAs: learned.keptAs },
        'learned MIDI mappings not read whole: the file is kept under a new name',
      );
    await this.reloadFiles();
    this.watch = new DirWatch([this.dir], () => void this.reloadFiles());
    await this.watch.start();
    await this.devices.start();
  }

  stop(): void {
    this.watch?.close();
    this.devices.stop();
    this.learning?.done(null);
  }

  stats() {
    return {
      enabled: this.config.enabled,
      available: this.devices.available,
      reason: this.config.enabled ? this.devices.reason : 'midi.enabled is false',
      inputs: this.devices.inputNames(),
      outputs: this.devices.outputNames(),
      mappings: this.mapper.list.length,
      mappingProblems: [...this.configProblems, ...this.learnedProblems, ...this.fileProblems].slice(0, PROBLEMS_SHOWN),
      learnedSetAside: this.learnedSetAside,
      ...this.counts,
      learning: this.learning !== null,
      clockBpm: this.midiClock.bpm,
      recentFeedback: [...this.recent],
      applyMs: this.applyMs.view(),
    };
  }

  /** The one entry for a raw message, from a device port or a test: budget, strict read, then its mappings. */
  receive(port: string, bytes: ArrayLike<number>): void {
    if (!this.config.enabled) return;
    this.counts.received++;
    const name = String(port).slice(0, MIDI_LIMITS.portNameMaxLength);
    if (!this.budget.take(name)) {
      this.counts.dropped++;
      return;
    }
    if (this.timecode && (bytes[0] === 0xf1 || bytes[0] === 0xf0)) return this.mtc(name, bytes);
    const read = readMidi(bytes);
    if (!read.ok) {
      this.counts.malformed++;
      return this.warn(name, read.reason);
    }
    const ev = read.event;
    if (ev === null) return;
    if (!('channel' in ev)) return this.clock(ev.kind);
    if (this.learning && (ev.kind !== 'note' || ev.value > 0)) return this.bind(name, ev);
    const messages = this.mapper.map(name, ev);
    if (messages.length > 0) this.enqueue(messages, performance.now());
  }

  /** MIDI timecode: quarter frames through the assembler, the full-frame SysEx at once; the rest of SysEx is ignored. */
  private mtc(port: string, bytes: ArrayLike<number>): void {
    const tc = this.timecode!;
    if (tc.port !== null && !port.toLowerCase().includes(tc.port.toLowerCase())) return;
    const now = clockNow();
    if (bytes[0] === 0xf1) {
      if (bytes.length !== 2) return tc.sink.malformed(port, `an MTC quarter frame of ${bytes.length} bytes`);
      const r = this.assembler(port).quarter(bytes[1]!, now);
      if (r.kind === 'bad') return tc.sink.malformed(port, r.reason);
      if (r.kind === 'time') tc.sink.take('mtc', { frames: r.frames, rate: r.rate, atMs: r.atMs, reverse: r.reverse, from: port });
      return;
    }
    const full = readMtcFullFrame(bytes);
    if (full === null) return;
    if (!full.ok) return tc.sink.malformed(port, full.reason);
    this.assembler(port).full(full.tc, full.rate, now);
    tc.sink.take('mtc', { frames: toFrames(full.tc, full.rate), rate: full.rate, atMs: now, reverse: false, from: port });
  }

  private assembler(port: string): MtcAssembler {
    let a = this.mtcAssemblers.get(port);
    if (!a) {
      if (this.mtcAssemblers.size >= 8) this.mtcAssemblers.delete(this.mtcAssemblers.keys().next().value!);
      a = new MtcAssembler();
      this.mtcAssemblers.set(port, a);
    }
    return a;
  }

  /** Binds the next message to `spec` (POST /midi/learn): resolves with the new mapping. */
  learn(spec: LearnSpec): Promise<MidiMapping> {
    if (this.learning) return Promise.reject(new ApiError('MIDI_LEARN_BUSY'));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.learning?.done(null), MIDI_LIMITS.learnTimeoutMs);
      this.learning = {
        spec,
        done: (m) => {
          clearTimeout(timer);
          this.learning = null;
          if (m) resolve(m);
          else reject(new ApiError('MIDI_LEARN_TIMEOUT', `no MIDI message arrived within ${MIDI_LIMITS.learnTimeoutMs} ms`));
        },
      };
    });
  }

  private bind(port: string, ev: Extract<MidiEvent, { channel: number }>): void {
    const spec = this.learning!.spec;
    const m: MidiMapping = { port, channel: ev.channel, type: ev.kind, ...(ev.kind === 'pitch' ? {} : { number: ev.number }), to: spec.to };
    if (spec.arg !== undefined) m.arg = spec.arg;
    if (spec.mode !== undefined) m.mode = spec.mode;
    if (spec.feedback !== undefined) m.feedback = spec.feedback;
    // The control is bound once: a new learn on it replaces the old binding.
    const same = (o: MidiMapping) => o.port === m.port && o.channel === m.channel && o.type === m.type && o.number === m.number;
    this.learned = [...this.learned.filter((o) => !same(o)), m].slice(-MIDI_LIMITS.mappingsMax);
    this.remap();
    this.learning!.done(m);
    if (!this.learnedWritable) {
      this.log.error({ file: LEARNED_FILE }, 'learned MIDI mapping not saved: the unreadable learned.json could not be set aside');
      return;
    }
    void mkdir(this.dir, { recursive: true })
      .then(() => saveLearned(this.dir, this.learned))
      .catch((err: Error) => this.log.error({ err: err.message }, 'learned MIDI mappings could not be saved'));
  }

  /** Reloads run one after another, so an older read never replaces a newer one. */
  private reloadFiles(): Promise<void> {
    this.reloading = this.reloading
      .then(async () => {
        // learned.json is this service's own: read once at start, then written from memory after each learn.
        const read = await readMappingFiles(this.dir, (n) => n !== LEARNED_FILE);
        this.report(read.problems);
        ({ mappings: this.fileMappings, problems: this.fileProblems } = read);
        this.remap();
      })
      .catch((err: Error) => this.log.error({ err: err.message }, 'MIDI mapping files could not be reloaded'));
    return this.reloading;
  }

  private report(problems: readonly MappingProblem[]): void {
    for (const p of problems)
      this.log.warn(
        { file: p.from, index: p.index, reason: p.reason },
        p.index === null ? 'MIDI mapping file left out' : 'MIDI mapping left out',
      );
  }

  private remap(): void {
    const key = (m: MidiMapping) => JSON.stringify(m);
    const seen = new Set<string>();
    const all = [...this.configMappings, ...this.fileMappings, ...this.learned].filter((m) => {
      const k = key(m);
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
    this.mapper.set(all.slice(0, MIDI_LIMITS.mappingsMax));
  }

  private enqueue(messages: OscMessage[], arrived: number): void {
    const queued = this.queue.push(async () => {
      await this.apply(messages);
      this.applyMs.add(performance.now() - arrived);
    });
    if (!queued) this.counts.dropped++;
  }

  private async apply(messages: OscMessage[]): Promise<void> {
    for (const msg of messages) {
      const mapped = mapMessage(msg, this.lookup);
      if (mapped.kind === 'ignore') continue;
      if (mapped.kind === 'bad') {
        this.reject(msg.address, mapped.reason);
        continue;
      }
      await this.post(mapped.path, mapped.body, msg.address);
    }
  }

  private async post(path: string, body: unknown, what: string): Promise<void> {
    const why = refusal(await send(this.dispatch, path, body));
    if (why === null) this.counts.applied++;
    else this.reject(what, why);
  }

  /** MIDI clock as the tempo source: a changed tempo sets the BPM; start resyncs the bar. */
  private clock(kind: 'clock' | 'start' | 'continue' | 'stop'): void {
    if (!this.config.clock) return;
    if (kind === 'start') {
      this.midiClock.restart();
      return this.enqueueRequest(`${API_PREFIX}/tempo/resync`, undefined);
    }
    if (kind !== 'clock') return;
    const bpm = this.midiClock.tick();
    if (bpm !== null) this.enqueueRequest(`${API_PREFIX}/tempo/bpm`, { bpm });
  }

  private enqueueRequest(path: string, body: unknown): void {
    this.queue.always(() => this.post(path, body, path));
  }

  private feedback(topic: string, text: string): void {
    if (!this.sendsFeedback) return;
    const data = JSON.parse(text) as unknown;
    const messages =
      topic === 'params'
        ? ((data as { items?: unknown[] } | null)?.items ?? []).flatMap((it) => inputFeedback(it))
        : feedbackFor(topic, data);
    for (const msg of messages) {
      for (const out of this.mapper.feedback(msg)) {
        if (!this.feedbackBudget.take('all')) return;
        this.devices.send(out.port, out.bytes);
        this.counts.feedbackSent++;
        this.recent.push({ port: out.port ?? null, bytes: out.bytes });
        if (this.recent.length > MIDI_LIMITS.recentFeedback) this.recent.shift();
      }
    }
  }

  private reject(what: string, reason: string): void {
    this.counts.rejected++;
    this.warn(what, reason);
  }

  private warn(from: string, reason: string): void {
    const suppressed = this.logBudget.take(from);
    if (suppressed === null) return;
    this.log.warn({ from: from.slice(0, 200), reason: reason.slice(0, 300), suppressed }, 'MIDI input ignored');
  }
}
