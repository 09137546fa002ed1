// MIDI mapping files in <dataDir>/midi: every *.json holds a list of mappings (or {mappings: [...]}); each mapping
// is checked against the config's schema and its target as learn checks it, and bad ones are reported by file and
// index and left out. Only regular files are read (a named pipe there must not hold a file thread). Learned
// mappings are saved here too (learned.json), so they survive a restart and can be edited like the rest.
import { readdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { Compile } from 'typebox/compile';
import { MidiMappingSchema, type MidiMapping } from '../config/desks.js';
import { MIDI_LIMITS } from '../limits.js';
import { atomicWriteFile } from '../util/atomic-write.js';
import { readRegularText, RegularFileError } from '../util/regular-file.js';
import { targetProblem } from './targets.js';

const checkMapping = Compile(MidiMappingSchema);
export const LEARNED_FILE = 'learned.json';

/** A mapping (or a whole file, index null) left out: `from` is `config` or a file name in the folder. */
export interface MappingProblem {
  from: string;
  index: number | null;
  reason: string;
}

export interface MappingRead {
  mappings: MidiMapping[];
  problems: MappingProblem[];
}

/** The entries of one list that match the schema and name a controllable address; the rest become problems. */
export function checkMappings(list: readonly unknown[], from: string): MappingRead {
  const read: MappingRead = { mappings: [], problems: [] };
  list.forEach((m, index) => {
    const problem = !checkMapping.Check(m) ? 'does not match the mapping schema' : targetProblem((m as MidiMapping).to);
    if (problem === null) read.mappings.push(m as MidiMapping);
    else read.problems.push({ from, index, reason: problem });
  });
  return read;
}

const whole = (from: string, reason: string): MappingRead => ({ mappings: [], problems: [{ from, index: null, reason }] });

/** One file's mappings; a file gone since the folder was listed holds none and is no problem. */
async function readOne(dir: string, name: string): Promise<MappingRead> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readRegularText(join(dir, name), MIDI_LIMITS.mappingFileMaxBytes));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { mappings: [], problems: [] };
    if (err instanceof RegularFileError) return whole(name, err.message);
    return whole(name, `unreadable: ${(err as Error).message.slice(0, 200)}`);
  }
  const list = Array.isArray(parsed) ? parsed : (parsed as { mappings?: unknown } | null)?.mappings;
  return Array.isArray(list) ? checkMappings(list, name) : whole(name, 'holds no list of mappings');
}

/** Every valid mapping of the folder's files that `pick` takes, in file name order; a missing folder holds none. */
export async function readMappingFiles(dir: string, pick: (name: string) => boolean): Promise<MappingRead> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.json') && pick(n)).sort();
  } catch {
    return { mappings: [], problems: [] };
  }
  const out: MappingRead = { mappings: [], problems: [] };
  for (const name of names) {
    const read = await readOne(dir, name);
    out.mappings.push(...read.mappings);
    out.problems.push(...read.problems);
  }
  out.mappings = out.mappings.slice(0, MIDI_LIMITS.mappingsMax);
  return out;
}

/** learned.json, and where it was set aside when it was not read whole (null: it was, or there was none). */
export interface LearnedRead extends MappingRead {
  keptAs: string | null;
  /** Whether learned.json may be written: false when a bad one could not be set aside. */
  writable: boolean;
}

/**
 * Reads learned.json. One that cannot be read whole (unparseable, not a file, a bad entry) is renamed with the time
 * instead of being overwritten by the next learn with the mappings that could be read; the name leaves the `.json`
 * pattern, so it is not read as a mapping file, and has no colons, so the folder copies to any file system.
 */
export async function readLearned(dir: string): Promise<LearnedRead> {
  const read = await readOne(dir, LEARNED_FILE);
  if (read.problems.length === 0) return { ...read, keptAs: null, writable: true };
  const keptAs = `${LEARNED_FILE}.bad-${new Date().toISOString().replace(/:/g, '-')}`;
  try {
    await rename(join(dir, LEARNED_FILE), join(dir, keptAs));
    return { ...read, keptAs, writable: true };
  } catch (err) {
    const reason = `could not be set aside: ${(err as Error).message.slice(0, 200)}`;
    return { ...read, problems: [...read.problems, { from: LEARNED_FILE, index: null, reason }], keptAs: null, writable: false };
  }
}

export const saveLearned = (dir: string, learned: readonly MidiMapping[]): Promise<void> =>
  atomicWriteFile(join(dir, LEARNED_FILE), `${JSON.stringify(learned, null, 2)}\n`);
