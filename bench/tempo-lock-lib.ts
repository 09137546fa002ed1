// The tempo-lock bench's modules: this build's analyser, beat tracker and clock, and those of an earlier commit, taken
// from git and bundled into a temp dir at run time, so one run compares both builds (test/helpers/tempo-run.ts).
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { ROOT } from '../test/helpers/server.js';
import type { TrackerModules } from '../test/helpers/tempo-run.js';
import { Analyser } from '../workers/audio/analysis.js';
import { BeatTracker } from '../workers/audio/beat-tracker.js';
import { Clock } from '../workers/audio/clock.js';
import { createTempoBlock } from '../src/shared/tempo-block.js';

export const CURRENT: TrackerModules = { Analyser, BeatTracker, Clock, createTempoBlock };

/** The tracker modules of commit `ref`, bundled from `git archive` into a temp dir (removed once imported). */
export async function modulesAt(ref: string): Promise<TrackerModules> {
  const dir = await mkdtemp(join(tmpdir(), 'vjd-tempo-base-'));
  try {
    const tar = execFileSync('git', ['-C', ROOT, 'archive', ref, 'src', 'workers'], { maxBuffer: 256 * 1024 * 1024 });
    execFileSync('tar', ['-x', '-C', dir], { input: tar });
    const entry = join(dir, 'entry.ts');
    await writeFile(
      entry,
      [
        "export { Analyser } from './workers/audio/analysis.js';",
        "export { BeatTracker } from './workers/audio/beat-tracker.js';",
        "export { Clock } from './workers/audio/clock.js';",
        "export { createTempoBlock } from './src/shared/tempo-block.js';",
      ].join('\n'),
    );
    const out = join(dir, 'tracker.mjs');
    await build({
      entryPoints: [entry],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: out,
      nodePaths: [join(ROOT, 'node_modules')],
      logLevel: 'error',
    });
    return (await import(pathToFileURL(out).href)) as TrackerModules;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
