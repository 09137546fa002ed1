// MIDI mapping files in <dataDir>/midi: every *.json holds a list of mappings (or {mappings: [...]}); each mapping
// is checked against the config's schema, bad ones are named in the log and left out. Learned mappings are saved
// here too (learned.json), so they survive a restart and can be edited like the rest.
import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Compile } from 'typebox/compile';
import { MidiMappingSchema, type MidiMapping } from '../config/desks.js';
import { MIDI_LIMITS } from '../limits.js';
import type { Logger } from '../log.js';
import { atomicWriteFile } from '../util/atomic-write.js';

const checkMapping = Compile(MidiMappingSchema);
export const LEARNED_FILE = 'learned.json';

async function readBounded(path: string): Promise<string | null> {
  const fh = await open(path, 'r');
  try {
    const st = await fh.stat();
    if (!st.isFile() || st.size > MIDI_LIMITS.mappingFileMaxBytes) return null;
    return (await fh.readFile()).toString('utf8');
  } finally {
    await fh.close().catch(() => undefined);
  }
}

/** Every valid mapping of the folder's files that `pick` takes, in file name order; a missing folder holds none. */
export async function readMappingFiles(dir: string, log: Logger, pick: (name: string) => boolean): Promise<MidiMapping[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.json') && pick(n)).sort();
  } catch {
    return [];
  }
  const out: MidiMapping[] = [];
  for (const name of names) {
    let parsed: unknown;
    try {
      const text = await readBounded(join(dir, name));
      if (text === null) {
        log.warn({ file: name, max: MIDI_LIMITS.mappingFileMaxBytes }, 'MIDI mapping file is not a file or too large; left out');
        continue;
      }
      parsed = JSON.parse(text);
    } catch (err) {
      log.warn({ file: name, err: (err as Error).message }, 'MIDI mapping file unreadable; left out');
      continue;
    }
    const list = Array.isArray(parsed) ? parsed : (parsed as { mappings?: unknown } | null)?.mappings;
    if (!Array.isArray(list)) {
      log.warn({ file: name }, 'MIDI mapping file holds no list of mappings; left out');
      continue;
    }
    list.forEach((m, i) => {
      if (out.length >= MIDI_LIMITS.mappingsMax) return;
      if (checkMapping.Check(m)) out.push(m as MidiMapping);
      else log.warn({ file: name, index: i }, 'MIDI mapping does not match the mapping schema; left out');
    });
  }
  return out;
}

export const saveLearned = (dir: string, learned: readonly MidiMapping[]): Promise<void> =>
  atomicWriteFile(join(dir, LEARNED_FILE), `${JSON.stringify(learned, null, 2)}\n`);
