// The added audio inputs and their changes: add, edit and remove, each checked whole (fields, the library file, an
// id no other input has, the count) before anything changes, then saved before it is answered. Which input is
// selected, and what a change does to it, is the service's part (src/audio/service.ts).
import { ApiError } from '../errors.js';
import { AUDIO_LIMITS } from '../limits.js';
import type { Logger } from '../log.js';
import {
  type AddedInput,
  type AddedInputsFile,
  type AddedKind,
  checkAdded,
  isProblem,
  TARGET_FIELD,
  TARGET_FIELDS,
} from './added-inputs.js';
import { type LibraryFiles, resolveLibraryFile } from './library-file.js';

export interface AddRequest {
  id?: string | undefined;
  name?: string | undefined;
  kind: AddedKind;
  url?: string | undefined;
  file?: string | undefined;
  device?: string | undefined;
}

export type EditRequest = Omit<AddRequest, 'kind' | 'id'> & { id: string; kind?: AddedKind | undefined };

const invalid = (field: string, message: string): ApiError => new ApiError('INVALID_REQUEST', message, { field });

export class AddedInputs {
  private inputs: AddedInput[] = [];

  constructor(
    private readonly file: AddedInputsFile,
    private readonly library: LibraryFiles | null,
    private readonly log: Logger,
  ) {}

  get list(): readonly AddedInput[] {
    return this.inputs;
  }

  /** Reads the saved inputs; one whose id the config file now uses (`taken`) is logged and dropped. */
  async load(taken: (id: string) => boolean): Promise<void> {
    this.inputs = (await this.file.load()).filter((i) => {
      if (!taken(i.id)) return true;
      this.log.warn({ input: i.id }, 'an added audio input has an id the config file now uses (audio.inputs); it is dropped');
      return false;
    });
  }

  byId(id: string): AddedInput | undefined {
    const lower = id.toLowerCase();
    return this.inputs.find((i) => i.id.toLowerCase() === lower);
  }

  /** Adds an input; `taken` says whether another input (config, discovered) has an id. */
  async add(req: AddRequest, taken: (id: string) => boolean): Promise<AddedInput> {
    if (this.inputs.length >= AUDIO_LIMITS.addedMax) throw new ApiError('AUDIO_INPUT_LIMIT_REACHED');
    const name = req.name ?? defaultName(req);
    const id = req.id ?? freeId(name, (x) => taken(x) || this.byId(x) !== undefined);
    const input = await this.checked({ ...req, id, name });
    // Checked again after the awaits: two adds of one id may have been under way together.
    if (taken(input.id) || this.byId(input.id))
      throw new ApiError('AUDIO_INPUT_EXISTS', `an audio input of id "${input.id}" exists; pick another \`id\`, or edit that input`, {
        field: 'id',
      });
    if (this.inputs.length >= AUDIO_LIMITS.addedMax) throw new ApiError('AUDIO_INPUT_LIMIT_REACHED');
    this.inputs = [...this.inputs, input];
    await this.file.save(this.inputs);
    return input;
  }

  /** Changes the fields sent of the added input `before`; a new kind needs its own target field. */
  async edit(before: AddedInput, req: EditRequest): Promise<AddedInput> {
    const kind = req.kind ?? before.kind;
    const merged: Record<string, unknown> = { id: before.id, name: req.name ?? before.name, kind };
    const own = TARGET_FIELD[kind];
    for (const f of TARGET_FIELDS) {
      const sent = req[f];
      if (sent !== undefined) merged[f] = sent;
      else if (f === own && kind === before.kind) merged[f] = (before as Record<string, unknown>)[f];
    }
    const after = await this.checked(merged);
    const at = this.inputs.indexOf(before);
    if (at < 0) throw invalid('id', `the audio input "${before.id}" was removed meanwhile`);
    this.inputs = this.inputs.map((i, n) => (n === at ? after : i));
    await this.file.save(this.inputs);
    return after;
  }

  async remove(input: AddedInput): Promise<void> {
    this.inputs = this.inputs.filter((i) => i !== input);
    await this.file.save(this.inputs);
  }

  /** The fields checked, and a `file` found in the media library; INVALID_REQUEST naming the field otherwise. */
  private async checked(raw: Record<string, unknown>): Promise<AddedInput> {
    const input = checkAdded(raw);
    if (isProblem(input)) throw invalid(input.field, input.message);
    if (input.kind === 'file') {
      const found = this.library
        ? await resolveLibraryFile(this.library, input.file)
        : { problem: 'names no file: this server has no media library' };
      if ('problem' in found) throw invalid('file', `\`file\` ${found.problem}`);
    }
    return input;
  }
}

/** A name from what the input reads: the URL's host, the file's name, the device. */
function defaultName(req: AddRequest): string {
  if (req.kind === 'program') return 'Program audio';
  const target = req.url ?? req.file ?? req.device ?? '';
  if (req.kind === 'stream') {
    try {
      return new URL(target).host || target;
    } catch {
      return target;
    }
  }
  return (target.split('/').pop() ?? target).slice(0, AUDIO_LIMITS.nameMaxLength);
}

/** An id made from the name, with `-2`, `-3`, … when another input has it. */
function freeId(name: string, used: (id: string) => boolean): string {
  const base =
    name
      .toLowerCase()
      .replace(/[^a-z0-9_-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, AUDIO_LIMITS.idMaxLength - 4) || 'audio';
  const stem = base === 'none' ? 'none-input' : base;
  for (let n = 1; ; n++) {
    const id = n === 1 ? stem : `${stem}-${n}`;
    if (!used(id)) return id;
  }
}
