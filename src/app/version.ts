// The package version, read once from package.json (the single source of the version string).
import { readFile } from 'node:fs/promises';

let cached: string | null = null;

export async function packageVersion(): Promise<string> {
  if (cached) return cached;
  // dist/src/app/version.js and src/app/version.ts are both three levels below the package root.
  const url = new URL('../../../package.json', import.meta.url);
  const pkg = JSON.parse(await readFile(url, 'utf8')) as { version: string };
  cached = pkg.version;
  return cached;
}
