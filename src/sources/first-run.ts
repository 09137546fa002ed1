// The first start of a data dir (no saved state) puts a generator or preset on the program, so the output moves at
// once instead of staying black until an operator selects something; every later start restores what was saved.
import type { Logger } from '../log.js';
import type { SourceManager } from './source-manager.js';
import { kindsSelectedBy } from './kinds/index.js';

/** Selects `query` (config `sources.firstRun`: an id or name among generators and presets); never throws. */
export async function startFirstRun(sources: SourceManager, query: string, log: Logger): Promise<void> {
  let entry;
  try {
    entry = sources.resolve(kindsSelectedBy('first-run'), { id: query, name: query }, 'source');
  } catch {
    log.warn({ firstRun: query }, 'sources.firstRun names no installed generator or preset; the program starts empty');
    return;
  }
  try {
    // A select like any other: the program switches on its first frame and state.json remembers it.
    await sources.select(entry);
    log.info({ id: entry.id, name: entry.name }, 'first run: a generator is on the program');
  } catch (err) {
    log.warn({ id: entry.id, err: (err as Error).message }, 'first run: the default source did not start');
  }
}
