// Every catalog file that did not load and why: parse problems found by the scan, compile failures reported by the
// render worker. Read by GET /catalog/errors and by the lists that mark an item's `loadError`.
import { ISF_CACHE_LIMITS } from '../limits.js';

export type LoadErrorKind = 'effect' | 'generator' | 'transition' | 'blend' | 'preset';

export interface LoadError {
  /** The file as the catalog names it: a path, or `builtin:<name>` for a shipped file. */
  file: string;
  kind: LoadErrorKind;
  /** The type the file declares (from its name). */
  type: string;
  /** `parse`: skipped by the scan (not listed anywhere); `compile`: listed, but fails when used. */
  stage: 'parse' | 'compile';
  message: string;
  /** The line in the file the message points at, when it names one. */
  line: number | null;
}

/** A compile result as the render worker reports it. */
export interface CompileReport {
  type: string;
  kind: 'effect' | 'generator' | 'transition' | 'blend';
  ok: boolean;
  error?: string;
}

const { catalogErrorsMax, loadErrorMessageMax } = ISF_CACHE_LIMITS;

export class LoadErrors {
  private parsed: LoadError[] = [];
  /** Compile failures by `kind:type`, replaced by each new compile of that type. */
  private readonly compiled = new Map<string, LoadError>();

  /** Replaces the scan's problems (every rescan finds them all again). */
  setParsed(errors: readonly LoadError[]): void {
    this.parsed = errors.map((e) => ({ ...e, message: cut(e.message) }));
  }

  /** Records a compile result for the file `file`: a failure is kept, a success clears the type. */
  report(r: CompileReport, file: string): void {
    const key = `${r.kind}:${r.type}`;
    if (r.ok) {
      this.compiled.delete(key);
      return;
    }
    const message = cut(r.error ?? 'does not compile');
    this.compiled.set(key, { file, kind: r.kind, type: r.type, stage: 'compile', message, line: lineOf(message) });
  }

  /** Forgets compile failures of types the catalog no longer has (`present`: `kind:type` keys). */
  retain(present: ReadonlySet<string>): void {
    for (const key of this.compiled.keys()) if (!present.has(key)) this.compiled.delete(key);
  }

  /** The compile message of a listed type, or undefined when it loads. */
  of(kind: CompileReport['kind'], type: string): string | undefined {
    return this.compiled.get(`${kind}:${type}`)?.message;
  }

  /** Every problem (parse first, then compile), at most the limit; `count` is the whole number. */
  list(): { count: number; items: LoadError[] } {
    const all = [...this.parsed, ...this.compiled.values()];
    return { count: all.length, items: all.slice(0, catalogErrorsMax) };
  }
}

/** A parse problem of `file`; the line is read from the reason when it names one. */
export function parseError(file: string, kind: LoadErrorKind, type: string, reason: string): LoadError {
  const message = cut(reason);
  return { file, kind, type, stage: 'parse', message, line: lineOf(message) };
}

/** `line N` (the parser's and the compile messages' form), else a GL log's `ERROR: 0:N:`. */
function lineOf(message: string): number | null {
  const m = /\bline (\d+)/.exec(message) ?? /ERROR: \d+:(\d+):/.exec(message);
  return m ? Number(m[1]) : null;
}

function cut(message: string): string {
  return message.length > loadErrorMessageMax ? `${message.slice(0, loadErrorMessageMax)}…` : message;
}
