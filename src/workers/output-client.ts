// Main-thread half of the output worker: owns the program ring (allocated here, written by the render worker,
// read by the output worker; this thread never looks at its pixels), starts and stops consumers, and keeps the
// newest state and counters of each for the routes.
import { Worker } from 'node:worker_threads';
import { createFrameRing, ringGeometry, type PixelLayout } from '../shared/frame-ring.js';
import type { MainToOutput, OutputCounters, OutputInit, OutputSpec, OutputState, OutputToMain } from '../shared/protocol/output.js';
import type { Logger } from '../log.js';
import { relayLog } from '../shared/protocol/common.js';

export interface OutputRuntime extends OutputCounters {
  state: OutputState;
  lastError: string | null;
  startedAt: string | null;
  /** The recording being written (record kind). */
  file: string | null;
  pid: number | null;
  /** The window a display output opened. */
  size: { width: number; height: number } | null;
  /** A stream output: the shared encoder its stream comes from. */
  encoder: string | null;
  /** The start this describes (0: never started). */
  gen: number;
}

const STOP_TIMEOUT_MS = 5000;

export class OutputClient {
  private program: SharedArrayBuffer | null = null;
  private worker: Worker | null = null;
  private readonly runtime = new Map<string, OutputRuntime>();
  private stopped: Promise<void> | null = null;
  /** The gen of the newest start sent; replies about older runs are stale. */
  private gen = 0;
  /** Bumped on every state or counter change (memoised status bodies). */
  version = 0;
  /** Outputs refused before any ffmpeg (their encoder cannot run here): the worker never heard of them. */
  private readonly refused = new Set<string>();
  private mapRings: Array<{ id: string; ring: SharedArrayBuffer }> = [];

  constructor(
    private readonly opts: {
      ffmpeg: string;
      width: number;
      height: number;
      log: Logger;
      /** The layout the render reads back best (null while it starts: RGBA, which every size and GPU can take). */
      layout?: () => PixelLayout | null;
    },
  ) {}

  /** The program ring, allocated on first use (a box without outputs keeps the memory), in the render's layout. */
  get ring(): SharedArrayBuffer {
    const { width, height } = this.opts;
    return (this.program ??= createFrameRing(width, height, 3, this.opts.layout?.() ?? 'rgba'));
  }

  /** A ring like the program's (size, slots, layout) for a mapped output's own frames. */
  newRing(): SharedArrayBuffer {
    const g = ringGeometry(this.ring);
    return createFrameRing(g.maxWidth, g.maxHeight, g.slots, g.layout);
  }

  /** The outputs that read their own ring instead of the program's (output mapping); kept for a new worker. */
  setMapRings(rings: Array<{ id: string; ring: SharedArrayBuffer }>): void {
    this.mapRings = rings;
    if (this.worker && !this.stopped) this.post({ t: 'map-rings', rings });
  }

  /**
   * Starts (or restarts with a new spec) one consumer; its counters start over. Messages keep their order, and the
   * worker applies each output's starts and stops in that order.
   */
  start(id: string, spec: OutputSpec): void {
    if (this.stopped) return;
    const gen = ++this.gen;
    this.refused.delete(id);
    this.runtime.set(id, { ...empty(), state: 'starting', gen });
    this.version++;
    this.post({ t: 'start', id, gen, spec });
  }

  /** An output that cannot start: `failed` with the reason until it is stopped, and no ffmpeg (a new gen hides older runs). */
  refuse(id: string, reason: string): void {
    if (this.stopped) return;
    this.refused.add(id);
    this.runtime.set(id, { ...empty(), state: 'failed', lastError: reason, gen: ++this.gen });
    this.version++;
  }

  stopOutput(id: string): void {
    const r = this.runtime.get(id);
    if (this.refused.delete(id) && r) {
      r.state = 'stopped';
      this.version++;
      return;
    }
    if (!this.worker || this.stopped) return;
    this.post({ t: 'stop-output', id });
  }

  /** Newest known state of an output; a never-started one is `stopped` with zero counters. */
  status(id: string): OutputRuntime {
    return this.runtime.get(id) ?? empty();
  }

  /** Frames sent and dropped so far over every output that runs now (the pipeline pressure meter's input). */
  totals(): { sent: number; dropped: number } {
    let sent = 0;
    let dropped = 0;
    for (const r of this.runtime.values()) {
      if (r.state !== 'running') continue;
      sent += r.framesSent;
      dropped += r.framesDropped;
    }
    return { sent, dropped };
  }

  forget(id: string): void {
    this.runtime.delete(id);
    this.refused.delete(id);
    this.version++;
  }

  stop(): Promise<void> {
    if (this.stopped) return this.stopped;
    const worker = this.worker;
    this.stopped = (async () => {
      if (!worker) return;
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      worker.postMessage({ t: 'stop' } satisfies MainToOutput);
      const hard = setTimeout(() => void worker.terminate(), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(hard);
    })();
    return this.stopped;
  }

  private post(m: MainToOutput): void {
    this.ensureWorker().postMessage(m);
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const init: OutputInit = { ffmpeg: this.opts.ffmpeg, ring: this.ring };
    const worker = new Worker(new URL('../../workers/output/main.js', import.meta.url), { workerData: init });
    this.worker = worker;
    worker.on('message', (m: OutputToMain) => this.onMessage(m));
    if (this.mapRings.length > 0) worker.postMessage({ t: 'map-rings', rings: this.mapRings } satisfies MainToOutput);
    worker.on('error', (err) => this.opts.log.error({ worker: 'output', error: err.message }, 'output worker crashed'));
    worker.on('exit', (code) => {
      if (this.worker !== worker) return;
      this.worker = null;
      if (this.stopped) return;
      // Its ffmpeg children died with it (parent-death signal): every output is down until started again.
      this.opts.log.error({ worker: 'output', code }, 'output worker exited unexpectedly');
      for (const r of this.runtime.values()) {
        r.state = 'stopped';
        r.lastError = 'output worker exited';
      }
      this.version++;
    });
    return worker;
  }

  private onMessage(m: OutputToMain): void {
    switch (m.t) {
      case 'state': {
        const r = this.runtime.get(m.id);
        // A late word from a run that a newer start replaced says nothing about the process now.
        if (!r || r.gen !== m.gen) return;
        r.state = m.state;
        r.lastError = m.lastError;
        r.startedAt = m.startedAt;
        r.file = m.file ?? null;
        r.pid = m.pid ?? null;
        r.encoder = m.encoder ?? null;
        if (m.size) r.size = m.size;
        this.version++;
        return;
      }
      case 'counters':
        for (const c of m.items) {
          const r = this.runtime.get(c.id);
          if (!r || r.gen !== c.gen) continue;
          r.framesSent = c.framesSent;
          r.framesDropped = c.framesDropped;
          r.framesRepeated = c.framesRepeated;
          r.restarts = c.restarts;
        }
        this.version++;
        return;
      case 'log':
        relayLog(this.opts.log, m, { worker: 'output' });
        return;
      case 'stopped':
        return;
    }
  }
}

function empty(): OutputRuntime {
  return {
    state: 'stopped',
    lastError: null,
    startedAt: null,
    file: null,
    pid: null,
    size: null,
    encoder: null,
    gen: 0,
    framesSent: 0,
    framesDropped: 0,
    framesRepeated: 0,
    restarts: 0,
  };
}
