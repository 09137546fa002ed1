// Stream outputs (and recordings, unless config says otherwise) with the same encoding settings share one encoder:
// the first one to start creates it (a paced Consumer whose ffmpeg writes MPEG-TS to its stdout), every member
// adds its own remux target fed from that stream, and the last one to stop ends it. A member's counters are the
// encoder's since the member joined.
import type { OutputCounters, OutputState } from '../../src/shared/protocol/output.js';
import { Consumer, type ConsumerDeps } from './consumer.js';
import type { FrameSource } from './program-frames.js';
import { RemuxTarget, type RemuxDeps } from './remux.js';
import { encodeKey, encoderArgs, type SharedSpec } from './shared-args.js';
import { TsClock } from '../../src/shared/ts-pts.js';

interface Group {
  /** What /status shows as the encoder's id. */
  name: string;
  /** Its key among the groups: the encoding settings, and the output whose own picture it encodes, if any. */
  key: string;
  base: string;
  owner: string | null;
  encoder: Consumer;
  members: Set<SharedMember>;
  /** The encoded stream's clock, and the members waiting for it to pass a time before they leave. */
  clock: TsClock;
  waiters: Array<{ ms: number; done: () => void }>;
}

/** A member that stops waits at most this long for the encode to catch up with what it was given. */
const DRAIN_MS = 3000;

export interface MemberDeps extends Omit<RemuxDeps, 'onState'> {
  /** Same as RemuxDeps.onState, with the encoder this output's stream comes from. */
  onShared(
    state: OutputState,
    lastError: string | null,
    startedAt: string | null,
    pid: number | undefined,
    encoder: string,
    file: string | undefined,
  ): void;
}

export class SharedEncoders {
  private readonly groups = new Map<string, Group>();
  private made = 0;

  constructor(
    private readonly encoderDeps: Omit<ConsumerDeps, 'onState' | 'args' | 'onData'>,
    /** Output mapping: whether an output has its own ring now, and that output's frames. */
    private readonly maps: { has(id: string): boolean; frames(id: string): FrameSource } = {
      has: () => false,
      frames: () => encoderDeps.frames,
    },
  ) {}

  member(id: string, spec: SharedSpec, deps: MemberDeps): SharedMember {
    return new SharedMember(id, spec, this, deps);
  }

  join(m: SharedMember, spec: SharedSpec): Group {
    // A mapped output encodes its own picture: it never shares an encoder with another output.
    const owner = this.maps.has(m.id) ? m.id : null;
    const base = encodeKey(spec);
    const key = owner ? `${base}\u0000${owner}` : base;
    let g = this.groups.get(key);
    if (!g) {
      const name = `enc-${++this.made}`;
      const members = new Set<SharedMember>();
      const clock = new TsClock();
      const waiters: Group['waiters'] = [];
      const program = this.encoderDeps.frames;
      // Read at every slot: remap() may hand the group to its member's own picture or back to the program.
      let made: Group | undefined;
      const encoder = new Consumer(name, spec, {
        ...this.encoderDeps,
        frames: { size: program.size, newest: () => (made?.owner ? this.maps.frames(made.owner) : program).newest() },
        onState: (state, lastError) => {
          // A new encoder process starts its clock again.
          if (state === 'starting') clock.reset();
          if (state === 'retrying' || state === 'failed') for (const x of members) x.encoderTrouble(lastError);
        },
        args: (input) => encoderArgs(spec, input),
        onData: (chunk) => {
          for (const x of members) x.target.write(chunk);
          clock.feed(chunk);
          for (let i = waiters.length - 1; i >= 0; i--) if (waiters[i]!.ms <= clock.latestMs) waiters.splice(i, 1)[0]!.done();
        },
      });
      g = made = { name, key, base, owner, encoder, members, clock, waiters };
      this.groups.set(key, g);
      encoder.start();
    }
    g.members.add(m);
    return g;
  }

  /**
   * The set of mapped outputs changed: an encoder with one member follows its member at once (its own picture or
   * the program's, keyed so that no other output joins it meanwhile). One shared by several is left as it is; the
   * main thread starts such a member again, which moves it to an encoder of its own.
   */
  remap(): void {
    for (const g of [...this.groups.values()]) {
      if (g.members.size !== 1) continue;
      const [m] = g.members;
      const owner = this.maps.has(m!.id) ? m!.id : null;
      if (owner === g.owner) continue;
      const key = owner ? `${g.base}\u0000${owner}` : g.base;
      // Back to the program while another encoder of the same settings runs: keep to itself (same picture).
      if (this.groups.has(key)) continue;
      this.groups.delete(g.key);
      g.key = key;
      g.owner = owner;
      this.groups.set(key, g);
    }
  }

  /**
   * Takes `m` out of its encoder so that its stream or file ends where the stop came, not an encode latency
   * earlier: with others staying it waits (at most DRAIN_MS) until the encode has passed the slot of the stop;
   * the last member stops the encoder instead, which flushes every frame it holds before it exits.
   */
  async leave(m: SharedMember): Promise<void> {
    const g = [...this.groups.values()].find((x) => x.members.has(m));
    if (!g) return;
    if (g.members.size > 1) {
      await drained(g, g.encoder.clockMs());
      g.members.delete(m);
      // The others may have left while this one waited: then it ends the encoder.
      if (g.members.size > 0 || this.groups.get(g.key) !== g) return;
    }
    this.groups.delete(g.key);
    await g.encoder.stop();
    g.members.delete(m);
  }

  killAll(): void {
    for (const g of this.groups.values()) g.encoder.kill();
  }
}

function drained(g: Group, ms: number): Promise<void> {
  if (ms < 0 || g.clock.latestMs >= ms) return Promise.resolve();
  return new Promise((resolve) => {
    const w = {
      ms,
      done: () => {
        clearTimeout(timer);
        resolve();
      },
    };
    const timer = setTimeout(() => {
      const at = g.waiters.indexOf(w);
      if (at >= 0) g.waiters.splice(at, 1);
      resolve();
    }, DRAIN_MS);
    g.waiters.push(w);
  });
}

/** One output in a shared encoder: its run, as the output slots drive it. */
export class SharedMember {
  readonly target: RemuxTarget;
  private group: Group | null = null;
  private base: OutputCounters = { framesSent: 0, framesDropped: 0, framesRepeated: 0, restarts: 0 };
  /** The counters at the stop, once stopped. */
  private final: OutputCounters | null = null;

  constructor(
    readonly id: string,
    private readonly spec: SharedSpec,
    private readonly shared: SharedEncoders,
    private readonly deps: MemberDeps,
  ) {
    this.target = new RemuxTarget(id, spec, {
      ...deps,
      onState: (state, lastError, startedAt, pid, file) => deps.onShared(state, lastError, startedAt, pid, this.group?.name ?? '', file),
    });
  }

  /** The encoder's slots since this output joined; restarts are its target's and the encoder's. */
  get counters(): OutputCounters {
    if (this.final) return this.final;
    const e = this.group?.encoder.counters ?? this.base;
    return {
      framesSent: e.framesSent - this.base.framesSent,
      framesDropped: e.framesDropped - this.base.framesDropped,
      framesRepeated: e.framesRepeated - this.base.framesRepeated,
      restarts: this.target.restarts + e.restarts - this.base.restarts,
    };
  }

  start(): void {
    this.group = this.shared.join(this, this.spec);
    this.base = { ...this.group.encoder.counters };
    this.target.start();
  }

  /** The encoder failed: said on this output too, while its target waits for the encoder's restart. */
  encoderTrouble(lastError: string | null): void {
    this.deps.onLog('warn', 'shared stream encoder is down', { id: this.id, encoder: this.group?.name, lastError });
  }

  async stop(): Promise<void> {
    // Out of the encoder first (its last frames reach the target meanwhile), then the target ends its file or stream.
    await this.shared.leave(this);
    this.final = this.counters;
    this.group = null;
    await this.target.stop();
  }

  kill(): void {
    this.target.kill();
  }
}
