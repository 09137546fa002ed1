// What one layer's source manager, mixer and chain routes see of the render worker: the render client's calls with
// the layer's id filled in, its own chain snapshot, and the switch and swap events of this layer only.
import { EventEmitter } from 'node:events';
import type { ChainSnapshot, RenderClient, SourceResult } from './render-client.js';
import type { ChainCommand, ChainItem, ChainReply, MixCommand, SourceSpec } from '../shared/protocol/render.js';
import type { IngestInput } from '../shared/protocol/ingest.js';
import type { ReaderPool, ReaderRole } from '../inputs/reader-pool.js';
import { ApiError } from '../errors.js';

const EMPTY: ChainSnapshot = { version: 0, items: [], entries: [] };

export class LayerRender extends EventEmitter {
  private readonly onSource = (key: string, layer: number): void => {
    if (layer === this.id) this.emit('source', key);
  };
  private readonly onSwap = (keys: { program: string; preview: string }, layer: number): void => {
    if (layer === this.id) this.emit('mix-swap', keys);
  };

  constructor(
    private readonly render: RenderClient,
    readonly id: number,
  ) {
    super();
    render.on('source', this.onSource);
    render.on('mix-swap', this.onSwap);
  }

  source(key: string, spec: SourceSpec, deadline: number): Promise<SourceResult> {
    return this.render.source(key, spec, deadline, this.id);
  }

  cue(key: string, spec: SourceSpec, deadline: number): Promise<SourceResult> {
    return this.render.cue(key, spec, deadline, this.id);
  }

  mix(cmd: MixCommand): Promise<string | null> {
    return this.render.mix(cmd, this.id);
  }

  shown(key: string, afterFrame: number, deadline: number): Promise<string | null> {
    return this.render.shown(key, afterFrame, deadline, this.id);
  }

  /** The layer's own chain. */
  get snapshot(): ChainSnapshot {
    return this.render.layerSnapshots.get(this.id) ?? EMPTY;
  }

  alive(): boolean {
    return this.render.alive();
  }

  readChain(): ChainSnapshot {
    if (!this.render.alive()) throw new ApiError('CHAIN_BUSY', 'the render worker is not answering; retry');
    return this.snapshot;
  }

  async chain(cmd: ChainCommand, startedAt = Date.now()): Promise<ChainItem> {
    return (await this.chainReply(cmd, startedAt)).item;
  }

  chainReply(cmd: ChainCommand, startedAt = Date.now()): Promise<Extract<ChainReply, { ok: true }>> {
    return this.render.chainReply(cmd, startedAt, this.id);
  }

  /** Stops listening (the layer was removed). */
  dispose(): void {
    this.render.off('source', this.onSource);
    this.render.off('mix-swap', this.onSwap);
    this.removeAllListeners();
  }
}

/** The reader pool as one layer holds it: layer 1 with the plain roles, the others with roles of their own. */
export function layerReaders(pool: ReaderPool, layer: number): ReaderPool {
  if (layer === 1) return pool;
  const role = (r: ReaderRole): ReaderRole => (r.includes('@') ? r : (`${r}@${layer}` as ReaderRole));
  const own: Record<string, unknown> = {
    acquire: (key: string, input: IngestInput, live: boolean, r: ReaderRole) => pool.acquire(key, input, live, role(r)),
    release: (key: string, r: ReaderRole) => pool.release(key, role(r)),
    has: (key: string, r: ReaderRole) => pool.has(key, role(r)),
  };
  return new Proxy(pool, {
    get(target, p) {
      if (typeof p === 'string' && p in own) return own[p];
      const v = Reflect.get(target, p) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}
