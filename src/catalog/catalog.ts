// The effect, generator and source-preset catalog: built-ins under assets/ plus the configured folders,
// rescanned when a folder changes. A file that does not parse is skipped with a log line naming it and why.
import { EventEmitter } from 'node:events';
import { readdir } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IsfDescriptor } from '../shared/isf-types.js';
import { parseIsf, isfTypeFromFileName } from './isf-parse.js';
import { DirWatch } from '../util/dir-watch.js';
import { readRegularText, RegularFileError } from '../util/regular-file.js';
import { parseEffectPreset, type EffectPreset } from './effect-presets.js';
import type { Logger } from '../log.js';
import { ImportedImages } from './imported-images.js';
import { blendProblem } from './blend-check.js';
import { LoadErrors, parseError, type CompileReport, type LoadError, type LoadErrorKind } from './load-errors.js';

/** Repo-relative assets folder (the compiled file lives in dist/src/catalog/). */
export const ASSETS_DIR = fileURLToPath(new URL('../../../assets/', import.meta.url));

const MAX_FILE_BYTES = 256 * 1024;
const MAX_FILES_PER_DIR = 2000;

export interface SourcePreset {
  /** `preset:<type>` where type comes from the file name. */
  id: string;
  name: string;
  /** Generator type the preset drives. */
  source: string;
  inputs: Record<string, unknown>;
  file: string;
}

export interface CatalogSnapshot {
  version: number;
  effects: IsfDescriptor[];
  generators: IsfDescriptor[];
  presets: SourcePreset[];
  /** Effect presets (actions category Effect Presets). */
  effectPresets: EffectPreset[];
  noSignal: IsfDescriptor | null;
  /** Mixer transitions: ISF files with `startImage`, `endImage` and `progress`. */
  transitions: IsfDescriptor[];
  /** Layer blend modes: ISF files with `baseImage`, `layerImage`, `opacity` and a `vjdBlend` function. */
  blends: IsfDescriptor[];
}

export interface CatalogDirs {
  effects: string[];
  sources: string[];
  presets: string[];
  transitions?: string[];
  blends?: string[];
}

export declare interface Catalog {
  on(event: 'change', fn: (s: CatalogSnapshot) => void): this;
}

export class Catalog extends EventEmitter {
  snapshot: CatalogSnapshot = {
    version: 0,
    effects: [],
    generators: [],
    presets: [],
    effectPresets: [],
    noSignal: null,
    transitions: [],
    blends: [],
  };
  private watch: DirWatch | null = null;
  private signature = '';
  private readonly images: ImportedImages;
  /** Files that did not load or compile (GET /catalog/errors, `loadError` on listed items). */
  readonly errors = new LoadErrors();

  constructor(
    private readonly dirs: CatalogDirs,
    private readonly log: Logger,
    private readonly assetsDir = ASSETS_DIR,
  ) {
    super();
    this.images = new ImportedImages(log);
  }

  async start(): Promise<void> {
    await this.reload();
    const watched = [
      ...this.dirs.effects,
      ...this.dirs.sources,
      ...this.dirs.presets,
      ...(this.dirs.transitions ?? []),
      ...(this.dirs.blends ?? []),
    ];
    if (watched.length > 0) {
      this.watch = new DirWatch(watched, () => void this.reload());
      await this.watch.start();
    }
  }

  stop(): void {
    this.watch?.close();
  }

  /** Scans every folder; emits 'change' when anything differs from the last scan. */
  async reload(): Promise<void> {
    // Local to this scan: a rescan started while one runs keeps its own list.
    const problems: LoadError[] = [];
    const effects = new Map<string, IsfDescriptor>();
    const generators = new Map<string, IsfDescriptor>();
    // Built-ins first: an operator file of the same type replaces the built-in one.
    for (const [dir, builtin] of [[join(this.assetsDir, 'effects'), true], ...this.dirs.effects.map((d) => [d, false] as const)] as const) {
      for (const d of await this.scanIsf(dir, builtin, 'effect', problems)) place(d, 'effect', effects, dir, this.log, problems);
    }
    for (const [dir, builtin] of [
      [join(this.assetsDir, 'generators'), true],
      ...this.dirs.sources.map((d) => [d, false] as const),
    ] as const) {
      for (const d of await this.scanIsf(dir, builtin, 'generator', problems)) place(d, 'generator', generators, dir, this.log, problems);
    }
    const noSignal =
      (await this.scanIsf(join(this.assetsDir, 'internal'), true, 'generator', problems)).find((d) => d.type === 'no_signal') ?? null;
    // A presets folder holds both kinds: a file with "source" is a source preset, one with "effect" an effect preset.
    const presets = new Map<string, SourcePreset>();
    const effectPresets = new Map<string, EffectPreset>();
    for (const dir of [join(this.assetsDir, 'presets'), join(this.assetsDir, 'effect-presets'), ...this.dirs.presets]) {
      for (const p of await this.scanPresets(dir, generators, effects, dir.startsWith(this.assetsDir), problems)) {
        if ('effect' in p) effectPresets.set(p.id, p);
        else presets.set(p.id, p);
      }
    }
    const transitions = new Map<string, IsfDescriptor>();
    for (const [dir, builtin] of [
      [join(this.assetsDir, 'transitions'), true],
      ...(this.dirs.transitions ?? []).map((d) => [d, false] as const),
    ] as const) {
      for (const d of await this.scanIsf(dir, builtin, 'transition', problems)) {
        const problem = transitionProblem(d);
        if (problem) {
          this.log.warn({ file: d.file, dir, reason: problem }, 'transition file skipped');
          problems.push(parseError(d.file, 'transition', d.type, problem));
        } else replaceInto(d, transitions, this.log);
      }
    }
    const blends = new Map<string, IsfDescriptor>();
    for (const [dir, builtin] of [
      [join(this.assetsDir, 'blends'), true],
      ...(this.dirs.blends ?? []).map((d) => [d, false] as const),
    ] as const) {
      for (const d of await this.scanIsf(dir, builtin, 'blend', problems)) {
        const problem = blendProblem(d);
        if (problem) {
          this.log.warn({ file: d.file, dir, reason: problem }, 'blend file skipped');
          problems.push(parseError(d.file, 'blend', d.type, problem));
        } else replaceInto(d, blends, this.log);
      }
    }
    const next = {
      effects: [...effects.values()],
      generators: [...generators.values()],
      presets: [...presets.values()],
      effectPresets: [...effectPresets.values()],
      noSignal,
      transitions: [...transitions.values()],
      blends: [...blends.values()],
    };
    this.images.sweep();
    this.errors.setParsed(problems);
    this.errors.retain(
      new Set([
        ...next.effects.map((d) => `effect:${d.type}`),
        ...next.generators.map((d) => `generator:${d.type}`),
        ...next.transitions.map((d) => `transition:${d.type}`),
        ...next.blends.map((d) => `blend:${d.type}`),
      ]),
    );
    const signature = JSON.stringify(next);
    if (signature === this.signature) return;
    this.signature = signature;
    this.snapshot = { version: this.snapshot.version + 1, ...next };
    this.log.info({ effects: next.effects.length, generators: next.generators.length, presets: next.presets.length }, 'catalog loaded');
    this.emit('change', this.snapshot);
  }

  /** Records the render worker's compile result of a listed type against its file. */
  compiled(r: CompileReport): void {
    const s = this.snapshot;
    const list = catalogList(s, r.kind);
    const file = list.find((d) => d.type === r.type)?.file;
    if (file !== undefined) this.errors.report(r, file);
  }

  private async scanIsf(dir: string, builtin: boolean, kind: LoadErrorKind, problems: LoadError[]): Promise<IsfDescriptor[]> {
    const out: IsfDescriptor[] = [];
    for (const name of await this.list(dir, '.fs')) {
      const path = join(dir, name);
      try {
        const text = await readSmall(path);
        const vsPath = join(dir, `${basename(name, '.fs')}.vs`);
        const vertex = await readSmall(vsPath).catch((err: unknown) => {
          // A missing vertex file is the usual case; a pipe or an oversized one under that name is worth a line.
          if (err instanceof RegularFileError) this.log.warn({ file: vsPath, reason: err.message }, 'ISF vertex file skipped');
          return undefined;
        });
        const desc = parseIsf(text, {
          file: builtin ? `builtin:${name}` : path,
          fileName: name,
          ...(vertex !== undefined ? { vertex } : {}),
        });
        await this.images.load(desc, dir);
        for (const warning of desc.warnings ?? []) this.log.warn({ file: path, warning }, 'ISF header corrected');
        for (const img of desc.imported ?? []) if (img.error) this.log.warn({ file: path, reason: img.error }, 'ISF image not loaded');
        out.push(desc);
      } catch (err) {
        this.log.warn({ file: path, reason: (err as Error).message }, 'ISF file skipped');
        problems.push(parseError(builtin ? `builtin:${name}` : path, kind, isfTypeFromFileName(name), (err as Error).message));
      }
    }
    return out;
  }

  private async scanPresets(
    dir: string,
    generators: Map<string, IsfDescriptor>,
    effects: Map<string, IsfDescriptor>,
    builtin: boolean,
    problems: LoadError[],
  ): Promise<Array<SourcePreset | EffectPreset>> {
    const out: Array<SourcePreset | EffectPreset> = [];
    for (const name of await this.list(dir, '.json')) {
      const path = join(dir, name);
      try {
        const raw = JSON.parse(await readSmall(path)) as Record<string, unknown>;
        if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error('a preset file holds one JSON object');
        if ('effect' in raw) {
          const preset = parseEffectPreset(raw, name, path, effects, builtin);
          if (preset.dropped)
            this.log.warn(
              { file: path, replacedBy: effects.get(preset.effect)?.file, dropped: preset.dropped },
              'built-in preset keeps the values its replaced effect accepts',
            );
          out.push(preset);
          continue;
        }
        const presetName = raw.name;
        const source = raw.source;
        const inputs = raw.inputs ?? {};
        if (typeof presetName !== 'string' || presetName.trim() === '' || presetName.length > 128)
          throw new Error('"name" must be a string of 1 to 128 characters');
        if (typeof source !== 'string' || !generators.has(source))
          throw new Error(`"source" must name an installed generator (got ${JSON.stringify(source)})`);
        if (typeof inputs !== 'object' || inputs === null || Array.isArray(inputs)) throw new Error('"inputs" must be an object');
        out.push({
          id: `preset:${isfTypeFromFileName(name)}`,
          name: presetName.trim(),
          source,
          inputs: inputs as Record<string, unknown>,
          file: path,
        });
      } catch (err) {
        this.log.warn({ file: path, reason: (err as Error).message }, 'preset file skipped');
        problems.push(parseError(path, 'preset', isfTypeFromFileName(name), (err as Error).message));
      }
    }
    return out;
  }

  private async list(dir: string, ext: string): Promise<string[]> {
    try {
      const names = (await readdir(dir)).filter((n) => extname(n).toLowerCase() === ext && !n.startsWith('.')).sort();
      if (names.length > MAX_FILES_PER_DIR) {
        this.log.warn({ dir, files: names.length, limit: MAX_FILES_PER_DIR }, 'folder has too many files; the rest are ignored');
      }
      return names.slice(0, MAX_FILES_PER_DIR);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') this.log.warn({ dir, err: (err as Error).message }, 'catalog folder unreadable');
      return [];
    }
  }
}

/** The listed descriptors of a compiled kind. */
export function catalogList(s: CatalogSnapshot, kind: CompileReport['kind']): IsfDescriptor[] {
  return kind === 'effect' ? s.effects : kind === 'generator' ? s.generators : kind === 'blend' ? s.blends : s.transitions;
}

/** Why an ISF file is not a transition (the ISF transition convention), or null when it is one. */
function transitionProblem(d: IsfDescriptor): string | null {
  const has = (name: string, type: string): boolean => d.inputs.some((i) => i.name === name && i.type === type);
  if (!has('startImage', 'image') || !has('endImage', 'image')) return 'a transition needs image inputs "startImage" and "endImage"';
  if (!has('progress', 'float')) return 'a transition needs a float input "progress"';
  return null;
}

function place(
  d: IsfDescriptor,
  kind: 'effect' | 'generator',
  into: Map<string, IsfDescriptor>,
  dir: string,
  log: Logger,
  problems: LoadError[],
): void {
  if (d.kind !== kind) {
    const reason =
      kind === 'effect'
        ? 'ISF file has no inputImage, so it is a generator; put it in a sources folder'
        : 'ISF file has an inputImage, so it is an effect; put it in an effects folder';
    log.warn({ file: d.file, dir }, reason);
    problems.push(parseError(d.file, kind, d.type, reason));
    return;
  }
  replaceInto(d, into, log);
}

/** Files are placed built-ins first, so an operator file of a built-in's type replaces it and records which. */
function replaceInto(d: IsfDescriptor, into: Map<string, IsfDescriptor>, log: Logger): void {
  const old = into.get(d.type);
  if (old?.file.startsWith('builtin:') && !d.file.startsWith('builtin:')) {
    d.replaces = old.file;
    log.info({ file: d.file, replaces: old.file }, 'ISF file replaces a built-in');
  }
  into.set(d.type, d);
}

/** Regular files only: a pipe named like a shader would otherwise park a file thread in open() for good. */
function readSmall(path: string): Promise<string> {
  return readRegularText(path, MAX_FILE_BYTES);
}
