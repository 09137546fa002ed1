// Audio inputs added over the API: their shape, the checks every one passes (from a request or from the saved file,
// which a hand edit could have changed), and their file `<dataDir>/audio-inputs.json`, read at start and written
// atomically after every change.
import { join } from 'node:path';
import { deviceNameOk } from '../config/audio.js';
import { AUDIO_LIMITS } from '../limits.js';
import type { Logger } from '../log.js';
import { checkInputUrl } from '../shared/url.js';
import { atomicWriteFile } from '../util/atomic-write.js';
import { readRegularText } from '../util/regular-file.js';
import { fileNameProblem } from './library-file.js';

/** `stream` a network URL, `file` a media library file, `program` the program's sound, `alsa`/`pulse` a device. */
export type AddedInput =
  | { id: string; name: string; kind: 'stream'; url: string }
  | { id: string; name: string; kind: 'file'; file: string }
  | { id: string; name: string; kind: 'program' }
  | { id: string; name: string; kind: 'alsa' | 'pulse'; device: string };

export const ADDED_KINDS = ['stream', 'file', 'program', 'alsa', 'pulse'] as const;
export type AddedKind = (typeof ADDED_KINDS)[number];

/** The field that names what each kind reads. */
export const TARGET_FIELD = { stream: 'url', file: 'file', program: null, alsa: 'device', pulse: 'device' } as const;
export const TARGET_FIELDS = ['url', 'file', 'device'] as const;
export type TargetField = (typeof TARGET_FIELDS)[number];

export const ID_PATTERN = `^[A-Za-z0-9_-]{1,${AUDIO_LIMITS.idMaxLength}}$`;
const ID_RE = new RegExp(ID_PATTERN);

/** An input as a request or the saved file has it, before it is checked. */
export interface LooseAdded {
  id?: unknown;
  name?: unknown;
  kind?: unknown;
  url?: unknown;
  file?: unknown;
  device?: unknown;
}

export interface FieldProblem {
  field: string;
  message: string;
}

const problem = (field: string, message: string): FieldProblem => ({ field, message: `\`${field}\` ${message}` });

/** The checked input, or the first field that is wrong with the reason (the URL rules are the outputs' own). */
export function checkAdded(a: LooseAdded): AddedInput | FieldProblem {
  if (typeof a.id !== 'string' || !ID_RE.test(a.id))
    return problem('id', `must be 1 to ${AUDIO_LIMITS.idMaxLength} characters from A-Z a-z 0-9 _ -`);
  // POST /audio/select takes this word for "no input", so an input so named could never be selected.
  if (a.id.toLowerCase() === 'none') return problem('id', 'must not be "none" (it detaches the input)');
  if (typeof a.name !== 'string' || a.name.trim() === '' || a.name.length > AUDIO_LIMITS.nameMaxLength || /[\x00-\x1f\x7f]/.test(a.name))
    return problem('name', `must be 1 to ${AUDIO_LIMITS.nameMaxLength} characters without control characters`);
  if (typeof a.kind !== 'string' || !(ADDED_KINDS as readonly string[]).includes(a.kind))
    return problem('kind', `must be one of ${ADDED_KINDS.join(', ')} ("test" inputs come from the config file only)`);
  const kind = a.kind as AddedKind;
  const own = TARGET_FIELD[kind];
  for (const f of TARGET_FIELDS) {
    if (f !== own && a[f] !== undefined) return problem(f, `is not taken by kind "${kind}"`);
  }
  if (own === null) return { id: a.id, name: a.name, kind: 'program' };
  const value = a[own];
  if (typeof value !== 'string' || value === '') return problem(own, `is required for kind "${kind}"`);
  if (own === 'url') {
    if (value.length > AUDIO_LIMITS.urlMaxLength) return problem('url', `must be at most ${AUDIO_LIMITS.urlMaxLength} characters`);
    const check = checkInputUrl(value);
    return check.ok ? { id: a.id, name: a.name, kind: 'stream', url: value } : problem('url', check.reason);
  }
  if (own === 'file') {
    if (value.length > AUDIO_LIMITS.fileMaxLength) return problem('file', `must be at most ${AUDIO_LIMITS.fileMaxLength} characters`);
    const bad = fileNameProblem(value);
    return bad ? problem('file', bad) : { id: a.id, name: a.name, kind: 'file', file: value };
  }
  if (!deviceNameOk(value))
    return problem(
      'device',
      `must be a capture device name of 1 to ${AUDIO_LIMITS.deviceMaxLength} characters from A-Z a-z 0-9 _ . : , = @ + - starting with a letter or digit`,
    );
  return { id: a.id, name: a.name, kind: kind as 'alsa' | 'pulse', device: value };
}

export function isProblem(x: AddedInput | FieldProblem): x is FieldProblem {
  return 'field' in x;
}

/** The file of the added inputs in the data dir. */
export class AddedInputsFile {
  private readonly file: string | null;
  private saving: Promise<void> = Promise.resolve();

  /** Without a data dir nothing is read or kept. */
  constructor(
    dataDir: string | null,
    private readonly log: Logger,
  ) {
    this.file = dataDir === null ? null : join(dataDir, 'audio-inputs.json');
  }

  /** The saved inputs; one that fails the checks (or a second of one id) is logged and dropped. */
  async load(): Promise<AddedInput[]> {
    if (this.file === null) return [];
    let saved: unknown = null;
    try {
      saved = JSON.parse(await readRegularText(this.file, AUDIO_LIMITS.addedFileMaxBytes));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
        this.log.warn({ file: this.file, err: (err as Error).message }, 'saved audio inputs not read');
      return [];
    }
    const list = (saved as { inputs?: unknown } | null)?.inputs;
    if (!Array.isArray(list)) {
      this.log.warn({ file: this.file }, 'saved audio inputs not read: no `inputs` list');
      return [];
    }
    const out: AddedInput[] = [];
    for (const raw of list.slice(0, AUDIO_LIMITS.addedMax)) {
      const checked = checkAdded((raw ?? {}) as LooseAdded);
      if (isProblem(checked)) this.log.warn({ file: this.file, problem: checked.message }, 'a saved audio input was not restored');
      else if (out.some((i) => i.id.toLowerCase() === checked.id.toLowerCase()))
        this.log.warn({ file: this.file, id: checked.id }, 'a saved audio input repeats an id; not restored');
      else out.push(checked);
    }
    return out;
  }

  /** Writes the list; resolves once it is on disk (writes queue in order). */
  save(inputs: readonly AddedInput[]): Promise<void> {
    const file = this.file;
    if (file === null) return Promise.resolve();
    const data = JSON.stringify({ inputs }, null, 2);
    this.saving = this.saving.catch(() => undefined).then(() => atomicWriteFile(file, data));
    return this.saving;
  }
}
