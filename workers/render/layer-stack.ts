// The engine's layers: by id and bottom to top (never empty once the engine has set layer 1), each made with the
// engine's shared deps at the render size and told what every layer shares (the transitions, the no-signal
// generator). The engine (engine.ts) answers for the stack; the frame (frame.ts) draws it.
import type { IsfDescriptor } from '../../src/shared/isf-types.js';
import type { LayerWire } from '../../src/shared/protocol/render.js';
import { Layer, type LayerDeps } from './layer.js';

export class LayerStack {
  private readonly byId = new Map<number, Layer>();
  private list: Layer[] = [];
  private transitions: IsfDescriptor[] = [];
  private noSignal: IsfDescriptor | null = null;

  constructor(
    private readonly deps: LayerDeps,
    private width: number,
    private height: number,
  ) {}

  /** Bottom to top; `set` replaces the array rather than changing it. */
  get order(): Layer[] {
    return this.list;
  }

  get(id: number): Layer | undefined {
    return this.byId.get(id);
  }

  /** Replaces the stack (order and blending): new ids get a layer, missing ones are dropped. */
  set(wires: readonly LayerWire[]): void {
    const keep = new Set(wires.map((w) => w.id));
    for (const [id, l] of this.byId) {
      if (keep.has(id)) continue;
      this.byId.delete(id);
      l.destroy();
    }
    this.list = wires.map((w) => {
      let l = this.byId.get(w.id);
      if (!l) {
        l = this.make(w.id);
        this.byId.set(w.id, l);
      }
      l.set(w);
      return l;
    });
  }

  private make(id: number): Layer {
    const l = new Layer(id, this.deps, this.width, this.height);
    l.mix.setTransitions(this.transitions);
    l.source.setNoSignal(this.noSignal);
    return l;
  }

  /** The no-signal generator every source shows without a picture (null: none compiles). */
  setNoSignal(desc: IsfDescriptor | null): void {
    this.noSignal = desc;
    for (const l of this.list) l.source.setNoSignal(desc);
  }

  /** The transitions every mixer offers (the shared pool has compiled them). */
  setTransitions(descs: IsfDescriptor[]): void {
    this.transitions = descs;
    for (const l of this.list) l.mix.setTransitions(descs);
  }

  resize(w: number, h: number): void {
    this.width = w;
    this.height = h;
    for (const l of this.list) l.resize(w, h);
  }

  destroy(): void {
    for (const l of this.list) l.destroy();
    this.byId.clear();
    this.list = [];
  }
}
