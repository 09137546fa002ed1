// Stream outputs (and recordings, unless config says otherwise) with the same encoding settings share one encoder:
// the first one to start creates it (a paced Consumer whose ffmpeg writes MPEG-TS to its stdout), every member
// adds its own remux target fed from that stream, and the last one to stop ends it. A member's counters are the
// encoder's since the member joined.
import type { OutputCounters, OutputState } from '../../src/shared/messages.js';
import { Consumer, type ConsumerDeps } from './consumer.js';
import { RemuxTarget, type RemuxDeps } from './remux.js';
import { encodeKey, encoderArgs, type SharedSpec } from './shared-args.js';

interface Group {
  /** What /status shows as the encoder's id. */
  name: string;
  encoder: Consumer;
  members: Set<SharedMember>;
}

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

  constructor(private readonly encoderDeps: Omit<ConsumerDeps, 'onState' | 'args' | 'onData'>) {}

  member(id: string, spec: SharedSpec, deps: MemberDeps): SharedMember {
    return new SharedMember(id, spec, this, deps);
  }

  join(m: SharedMember, spec: SharedSpec): Group {
    const key = encodeKey(spec);
    let g = this.groups.get(key);
    if (!g) {
      const name = `enc-${++this.made}`;
      const members = new Set<SharedMember>();
      const encoder = new Consumer(name, spec, {
        ...this.encoderDeps,
        onState: (state, lastError) => {
          if (state === 'retrying' || state === 'failed') for (const x of members) x.encoderTrouble(lastError);
        },
        args: (input) => encoderArgs(spec, input),
        onData: (chunk) => {
          for (const x of members) x.target.write(chunk);
        },
      });
      g = { name, encoder, members };
      this.groups.set(key, g);
      encoder.start();
    }
    g.members.add(m);
    return g;
  }

  leave(m: SharedMember, spec: SharedSpec): Promise<void> {
    const key = encodeKey(spec);
    const g = this.groups.get(key);
    if (!g?.members.delete(m) || g.members.size > 0) return Promise.resolve();
    this.groups.delete(key);
    return g.encoder.stop();
  }

  killAll(): void {
    for (const g of this.groups.values()) g.encoder.kill();
  }
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
    await this.target.stop();
    this.final = this.counters;
    const done = this.shared.leave(this, this.spec);
    this.group = null;
    await done;
  }

  kill(): void {
    this.target.kill();
  }
}
