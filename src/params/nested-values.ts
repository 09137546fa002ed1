// The shape check the main thread runs on a request's values before they cross to the render worker.
import { clip, type ValueProblem } from '../shared/param-values.js';

/**
 * The first value no input type could take because it nests (arrays of arrays, objects beyond `{"delta": n}`), or
 * null. Checked before values are posted to the render worker: a deep one would overflow the structured clone.
 */
export function nestedValueProblem(request: Readonly<Record<string, unknown>>): ValueProblem | null {
  const flat = (v: unknown): boolean => v === null || typeof v !== 'object';
  for (const [name, v] of Object.entries(request)) {
    const ok = flat(v) || (Array.isArray(v) ? v.every(flat) : Object.values(v as object).every(flat));
    if (!ok) {
      const expected = 'a number, boolean, string, [numbers] or {"delta": n}, nothing nested deeper';
      return { message: `input "${clip(name)}" expects ${expected}`, details: { input: clip(name), expected } };
    }
  }
  return null;
}
