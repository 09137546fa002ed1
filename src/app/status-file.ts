// `<dataDir>/run/status.json`: the state a running server last reached, written by `vjd serve`, read by `vjd status`.
import { mkdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { readRegularText } from '../util/regular-file.js';
import { atomicWriteFile } from '../util/atomic-write.js';

export interface StatusFile {
  pid: number;
  version: string;
  state: string;
  reason: string | null;
  host: string;
  port: number;
  addresses: unknown[];
  updatedAt: string;
}

export const statusFilePath = (runDir: string): string => join(runDir, 'status.json');

export async function writeStatusFile(runDir: string, status: StatusFile): Promise<void> {
  await mkdir(runDir, { recursive: true });
  await atomicWriteFile(statusFilePath(runDir), JSON.stringify(status));
}

export async function readStatusFile(runDir: string): Promise<Partial<StatusFile> | null> {
  try {
    // A run dir is shared with whatever else runs there: regular files only, and small.
    return JSON.parse(await readRegularText(statusFilePath(runDir), 64 * 1024)) as Partial<StatusFile>;
  } catch {
    return null;
  }
}

export async function removeStatusFile(runDir: string): Promise<void> {
  await unlink(statusFilePath(runDir)).catch(() => undefined);
}
