// Scenes: the whole stack saved under a name (every layer's source, chain with values and modulators, opacity,
// blend, mute, solo, and the master chain) and recalled at once. A recall cues the changed layers' sources first,
// so every take starts warm, then sets chains and blending and takes every changed layer with one transition.
import { EventEmitter } from 'node:events';
import { mkdir, readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChainEntry, SceneSaved, StateStore } from '../state/store.js';
import type { LayerStack } from '../layers/stack.js';
import type { RenderClient } from '../workers/render-client.js';
import { keyOf, type SourceEntry } from '../sources/source-manager.js';
import { matchName } from '../shared/names.js';
import { ApiError, notFound } from '../errors.js';
import { DATA_FILE_LIMITS, LAYER_LIMITS } from '../limits.js';
import type { Logger } from '../log.js';
import { atomicWriteFile } from '../util/atomic-write.js';
import { readRegularFile, RegularFileError } from '../util/regular-file.js';

export interface ScenesDeps {
  stack: LayerStack;
  state: StateStore;
  render: RenderClient;
  maxLayers(): number;
  /** The program's image now (PNG of `imageBox`), kept as the scene's thumbnail; null when the output has no frame. */
  snapshotImage(): Promise<Uint8Array | null>;
  imageBox: { width: number; height: number };
  dir: string;
  log: Logger;
}

export interface RecallOptions {
  transition?: string | undefined;
  durationMs?: number | undefined;
  /** Effect ceiling of the license tier: a recalled chain is cut to it as a restored one is. */
  ceiling: number;
}

export class Scenes extends EventEmitter {
  /**
   * Saves and deletes run one after another: a delete landing while a save of the same scene writes its image
   * would otherwise remove the image first and leave the one written after it without a scene.
   */
  private queue: Promise<unknown>;
  /** The scene last recalled (what the show link reports as this box's scene); null before any recall. */
  recalled: { id: string; name: string } | null = null;

  constructor(private readonly d: ScenesDeps) {
    super();
    // The state is loaded by now; images left without a scene (by an older vjd) go before the first save.
    this.queue = this.sweep();
  }

  list(): readonly SceneSaved[] {
    return this.d.state.peek().scenes ?? [];
  }

  /** A scene by id first, then by flexible name, or 404 ITEM_NOT_FOUND. */
  find(q: { id?: string | undefined; name?: string | undefined }): SceneSaved {
    const all = this.list();
    const hit =
      (q.id !== undefined ? (all.find((s) => s.id === q.id) ?? matchName(all, q.id, [(s) => s.id, (s) => s.name])) : undefined) ??
      (q.name !== undefined ? matchName(all, q.name, [(s) => s.name, (s) => s.id]) : undefined);
    if (!hit)
      throw notFound(
        'scene',
        q.id ?? q.name ?? '',
        all.map((s) => s.id),
      );
    return hit;
  }

  /** Stores the stack as it is now; a scene of the same name is replaced (same id). */
  save(name: string): Promise<SceneSaved> {
    return this.serial(() => this.saveNow(name));
  }

  /** Removes the scene and its image; resolves once the image is gone. */
  delete(scene: SceneSaved): Promise<void> {
    return this.serial(async () => {
      this.d.state.update((s) => {
        s.scenes = (s.scenes ?? []).filter((x) => x.id !== scene.id);
      });
      this.emit('change');
      await this.removeImage(`${scene.id}.png`);
    });
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async saveNow(name: string): Promise<SceneSaved> {
    const { stack, render } = this.d;
    const all = this.list();
    const same = all.find((s) => s.name.toLowerCase() === name.toLowerCase());
    if (!same && all.length >= LAYER_LIMITS.scenesMax) throw new ApiError('SCENE_LIMIT_REACHED');
    const scene: SceneSaved = {
      id: same?.id ?? freeId(name, all),
      name,
      savedAt: new Date().toISOString(),
      layers: stack.layers().map((l) => {
        const e = l.sources.currentEntry();
        return {
          name: l.name,
          opacity: l.opacity,
          blend: l.blend,
          mute: l.mute,
          solo: l.solo,
          currentSource: e ? { kind: e.sourceKind, id: e.id } : null,
          chain: clone(l.render.snapshot.entries),
        };
      }),
      master: clone(render.snapshot.entries),
    };
    this.d.state.update((s) => {
      const list = s.scenes ?? [];
      s.scenes = same ? list.map((x) => (x.id === same.id ? scene : x)) : [...list, scene];
    });
    await this.saveImage(scene.id);
    this.emit('change');
    return scene;
  }

  /**
   * Switches the whole stack to `scene`; resolves once the first frame of every changed layer's take is on the
   * output. The changed sources are cued first (ACTIVATION_TIMEOUT when one has no frame in time: nothing taken).
   */
  async recall(scene: SceneSaved, opts: RecallOptions): Promise<void> {
    const { stack, render } = this.d;
    const want = scene.layers.slice(0, this.d.maxLayers());
    while (stack.layers().length < want.length) stack.add({});
    const layers = stack.layers().slice(0, want.length);
    const changed: typeof layers = [];
    const cues: Array<Promise<unknown>> = [];
    for (const [i, l] of layers.entries()) {
      const w = want[i]!;
      const entry = w.currentSource ? findEntry(l.sources.list(), w.currentSource) : null;
      const cur = l.sources.currentEntry();
      if (!entry || (cur && keyOf(cur) === keyOf(entry))) continue;
      changed.push(l);
      cues.push(l.mixer.cue(entry));
    }
    await Promise.all(cues);
    // The whole old picture gives way to the whole new one: the output is held and blended over, and every change
    // below it (sources, chains, blending, layers) is a cut on the frames that follow.
    const fade = opts.transition !== undefined && opts.transition !== 'cut' && (opts.durationMs ?? 0) > 0;
    if (fade) render.pictureTransition(opts.transition!, opts.durationMs!);
    for (const [i, l] of layers.entries()) {
      const w = want[i]!;
      stack.set(stack.positionOf(l), { name: w.name, opacity: w.opacity, blend: w.blend, mute: w.mute, solo: w.solo });
      if (!sameChain(l.render.snapshot.entries, w.chain)) await render.restore(clone(w.chain), opts.ceiling, l.id);
    }
    if (!sameChain(render.snapshot.entries, scene.master)) await render.restore(clone(scene.master), opts.ceiling);
    while (stack.layers().length > want.length) stack.remove(stack.layers().length);
    await Promise.all(changed.map((l) => l.mixer.take({ transition: 'cut', durationMs: 0 }, false)));
    this.recalled = { id: scene.id, name: scene.name };
    this.d.log.info({ scene: scene.name, changed: changed.length }, 'scene recalled');
  }

  get imageBox(): { width: number; height: number } {
    return this.d.imageBox;
  }

  /** The scene's thumbnail (PNG) or null when none was kept. */
  async image(id: string): Promise<Uint8Array | null> {
    const file = this.imagePath(id);
    try {
      // Regular files only: a pipe under the image's name would hold a file thread in open() for good.
      return new Uint8Array(await readRegularFile(file, DATA_FILE_LIMITS.sceneImageMaxBytes));
    } catch (err) {
      if (err instanceof RegularFileError) this.d.log.warn({ file, reason: err.message }, 'scene image skipped');
      return null;
    }
  }

  private async saveImage(id: string): Promise<void> {
    try {
      const bytes = await this.d.snapshotImage();
      if (!bytes) return;
      await mkdir(this.d.dir, { recursive: true });
      // Written beside and renamed over: a reader never sees half an image, and a pipe under the name is replaced, not opened.
      await atomicWriteFile(this.imagePath(id), bytes);
    } catch (err) {
      this.d.log.warn({ scene: id, err: (err as Error).message }, 'scene thumbnail not kept');
    }
  }

  /** Removes the images no saved scene owns (left by a save that raced a delete in an older vjd). */
  private async sweep(): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.d.dir);
    } catch {
      return;
    }
    const owned = new Set(this.list().map((s) => `${s.id}.png`));
    for (const name of names) {
      if (!name.endsWith('.png') || owned.has(name)) continue;
      if (await this.removeImage(name)) this.d.log.info({ file: join(this.d.dir, name) }, 'scene image without a scene removed');
    }
  }

  /** True when the file was there and is gone now. */
  private async removeImage(name: string): Promise<boolean> {
    const file = join(this.d.dir, name);
    try {
      await unlink(file);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
        this.d.log.warn({ file, err: (err as Error).message }, 'scene image not removed');
      return false;
    }
  }

  private imagePath(id: string): string {
    return join(this.d.dir, `${id}.png`);
  }
}

function findEntry(list: readonly SourceEntry[], ref: { kind: string; id: string }): SourceEntry | null {
  return list.find((e) => e.sourceKind === ref.kind && e.id === ref.id) ?? null;
}

const clone = (chain: readonly ChainEntry[]): ChainEntry[] => JSON.parse(JSON.stringify(chain)) as ChainEntry[];
const sameChain = (a: readonly ChainEntry[], b: readonly ChainEntry[]): boolean => JSON.stringify(a) === JSON.stringify(b);

/** A file-safe id from the name, unique among the scenes. */
function freeId(name: string, all: readonly SceneSaved[]): string {
  const base =
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'scene';
  let id = base;
  for (let n = 2; all.some((s) => s.id === id); n++) id = `${base}-${n}`;
  return id;
}
