// Shared pieces of the fault-injection tests: the faults report, a 5xx watch, child-process lookup, pixel checks.
import { readFile, readdir, rename, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { RESULTS_DIR, req, type Res } from '../helpers/server.js';
import { DocumentedAnswers, retryDocumented } from '../helpers/documented.js';

export type Rgb = [number, number, number];

export function near(px: number[], rgb: Rgb, tol = 40): boolean {
  return Math.abs(px[0]! - rgb[0]) <= tol && Math.abs(px[1]! - rgb[1]) <= tol && Math.abs(px[2]! - rgb[2]) <= tol;
}

/** The order faults are listed in faults.json, whichever test file reports first. */
const ORDER = [
  'ffmpeg-killed',
  'media-deleted-truncated',
  'media-root-recreated',
  'broken-catalog-files',
  'invalid-config-edit',
  'disk-full-state-write',
  'sigkill-during-mutations',
];

export interface FaultResult {
  name: string;
  survived: boolean;
  notes: string;
  /** Documented load answers (503 PREVIEW_TIMEOUT, THUMBNAIL_QUEUE_FULL) seen during the fault, by code; absent when none. */
  documentedAnswers?: Record<string, number>;
}

/**
 * Records one fault's outcome per test file; `save` merges them into faults.json in RESULTS_DIR (docs/operations.md
 * quotes it). `run` wraps a test body that returns its notes: a failed assertion records survived: false with the reason.
 */
export class FaultReport {
  private readonly results = new Map<string, FaultResult>();

  async run(name: string, body: () => Promise<string>, client?: Client): Promise<void> {
    const before = { ...(client?.documented.counts ?? {}) };
    const seen = (): Pick<FaultResult, 'documentedAnswers'> => {
      const delta = Object.entries(client?.documented.counts ?? {})
        .map(([k, n]) => [k, n - (before[k] ?? 0)] as const)
        .filter(([, n]) => n > 0);
      return delta.length ? { documentedAnswers: Object.fromEntries(delta) } : {};
    };
    try {
      this.results.set(name, { name, survived: true, notes: await body(), ...seen() });
    } catch (err) {
      const reason = String((err as Error).message ?? err)
        .split('\n')[0]!
        .slice(0, 400);
      this.results.set(name, { name, survived: false, notes: `test failed: ${reason}`, ...seen() });
      throw err;
    }
  }

  async save(): Promise<void> {
    if (this.results.size === 0) return;
    const file = join(RESULTS_DIR, 'faults.json');
    let faults: FaultResult[] = [];
    try {
      const old = JSON.parse(await readFile(file, 'utf8')) as { faults?: FaultResult[] };
      if (Array.isArray(old.faults)) faults = old.faults;
    } catch {
      // first report
    }
    const byName = new Map(faults.map((f) => [f.name, f]));
    for (const r of this.results.values()) byName.set(r.name, r);
    const rank = (n: string): number => (ORDER.includes(n) ? ORDER.indexOf(n) : ORDER.length);
    const merged = [...byName.values()].sort((a, b) => rank(a.name) - rank(b.name));
    await mkdir(RESULTS_DIR, { recursive: true });
    await writeFile(`${file}.tmp`, `${JSON.stringify({ faults: merged }, null, 2)}\n`);
    await rename(`${file}.tmp`, file);
  }
}

/**
 * Wraps `req` for one server and remembers every 5xx answer, so a test can assert none happened anywhere. The
 * load answers the spec documents for thumbnails are counted in `documented` instead (a loaded machine may give them).
 */
export class Client {
  readonly serverErrors: string[] = [];
  readonly documented = new DocumentedAnswers();
  constructor(private readonly base: () => string) {}

  async call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Res> {
    const r = await req(method, `${this.base()}/api/v1${path}`, {
      ...(body !== undefined ? { body } : {}),
      ...(headers ? { headers } : {}),
      timeoutMs: 15000,
    });
    if (r.status >= 500 && !this.documented.note(path, r))
      this.serverErrors.push(`${method} ${path} -> ${r.status} ${r.text.slice(0, 300)}`);
    return r;
  }

  get(path: string): Promise<Res> {
    return this.call('GET', path);
  }

  /** A thumbnail, asked again after a documented load answer (counted) until a real answer comes. */
  thumb(path: string): Promise<Res> {
    return retryDocumented(path, () => req('GET', `${this.base()}/api/v1${path}`, { timeoutMs: 15000 }), this.documented);
  }

  post(path: string, body: unknown = {}): Promise<Res> {
    return this.call('POST', path, body);
  }

  async json(path: string): Promise<any> {
    const r = await this.get(path);
    if (r.status !== 200) throw new Error(`GET ${path} answered ${r.status}: ${r.text}`);
    return r.json();
  }

  async sample(): Promise<number[]> {
    const r = await this.post('/_test/sample', { points: [[0.5, 0.5]] });
    if (r.status !== 200) throw new Error(`sample answered ${r.status}: ${r.text}`);
    return r.json().pixels[0];
  }
}

/** Pids of the direct children of `parent` whose command line contains `needle` (read from /proc). */
export async function childPids(parent: number, needle: string): Promise<number[]> {
  const out: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = await readFile(`/proc/${name}/stat`, 'utf8');
      // Field 4 (ppid) follows the parenthesised command name, which may itself hold spaces or parentheses.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== parent) continue;
      const cmd = (await readFile(`/proc/${name}/cmdline`, 'utf8')).split('\0').join(' ');
      if (cmd.includes(needle)) out.push(Number(name));
    } catch {
      // the process ended while we looked
    }
  }
  return out;
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls `fn` until it returns a value other than undefined; throws with `what` after the deadline. */
export async function poll<T>(what: string, fn: () => Promise<T | undefined> | T | undefined, timeoutMs = 10000, stepMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${(last as Error).message})` : ''}`);
    await new Promise((r) => setTimeout(r, stepMs));
  }
}
