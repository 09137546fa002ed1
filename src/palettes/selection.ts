// The current palette: persisted in state.json by id, pushed to the render worker whenever it or its file changes.
// A deleted file leaves no current palette (404 NO_CURRENT_PALETTE) until another is selected or the file returns.
import { EventEmitter } from 'node:events';
import { ApiError, notFound } from '../errors.js';
import type { StateStore } from '../state/store.js';
import type { Logger } from '../log.js';
import type { Palette, PaletteLibrary } from './library.js';

/** The palette object of the interface (docs/api.md, Resources: "Palette"). */
export interface PaletteView {
  index: number;
  id: string;
  name: string;
  colors: string[];
}

export function paletteView(p: Palette): PaletteView {
  return { index: p.index, id: p.id, name: p.name, colors: [...p.colors] };
}

export class PaletteSelection extends EventEmitter {
  /** The colors last sent to the renderer, to send again only when they change. */
  private sent: string | null = null;

  constructor(
    private readonly library: Pick<PaletteLibrary, 'list' | 'get' | 'find' | 'on'>,
    private readonly state: StateStore,
    private readonly push: (colors: string[]) => void,
    private readonly log: Logger,
  ) {
    super();
  }

  /** First start (no palette ever chosen): the first palette becomes current. Then keeps the renderer in step. */
  start(): void {
    if (this.state.peek().paletteId === null) {
      const first = this.library.list()[0];
      if (first) this.state.update((s) => void (s.paletteId = first.id));
    }
    this.library.on('change', () => this.sync());
    this.sync();
  }

  current(): Palette | null {
    const id = this.state.peek().paletteId;
    return id === null ? null : (this.library.get(id) ?? null);
  }

  /** The current palette or 404 NO_CURRENT_PALETTE. */
  requireCurrent(): Palette {
    const p = this.current();
    if (!p)
      throw new ApiError(
        'NO_CURRENT_PALETTE',
        this.library.list().length === 0
          ? 'no palette is selected: the palette library is empty'
          : 'no palette is selected: the current palette file was removed; select one',
      );
    return p;
  }

  /** Exact id first, then flexible name matching; 404 ITEM_NOT_FOUND with the available ids. */
  resolve(q: { id?: string | undefined; name?: string | undefined }): Palette {
    const hit =
      (q.id !== undefined ? (this.library.get(q.id) ?? this.library.find(q.id)) : undefined) ??
      (q.name !== undefined ? this.library.find(q.name) : undefined);
    if (hit) return hit;
    const requested = q.id ?? q.name ?? '';
    throw notFound(
      'palette',
      requested,
      this.library.list().map((p) => p.id),
    );
  }

  select(p: Palette): Palette {
    if (this.state.peek().paletteId !== p.id) {
      this.state.update((s) => void (s.paletteId = p.id));
      this.log.info({ id: p.id, name: p.name }, 'current palette');
    }
    this.sync();
    return p;
  }

  /** The palette after the current one (wrapping); the first when none is current; 404 when the library is empty. */
  next(): Palette {
    const list = this.library.list();
    if (list.length === 0) throw new ApiError('NO_CURRENT_PALETTE', 'there is no palette to select: the palette library is empty');
    const cur = this.current();
    const at = cur ? list.findIndex((p) => p.id === cur.id) : -1;
    return this.select(list[(at + 1) % list.length]!);
  }

  private sync(): void {
    const colors = this.current()?.colors ?? [];
    const key = colors.join(',');
    if (key === this.sent) return;
    this.sent = key;
    // No current palette: shaders fall back to the built-in default colors (src/shared/palette.ts).
    this.push([...colors]);
    this.emit('change');
  }
}
