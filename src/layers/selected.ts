// /sources, /mix and /transport keep their one source manager, mixer and transport: these stand-ins forward every call to the
// layer a request addresses (the selected one, or the one a `/layers/{n}/…` route names), and their `change`
// events follow the selected layer, so one layer behaves exactly as the single source did.
import type { LayerParts, LayerStack } from './stack.js';

const EVENT_METHODS = new Set(['on', 'once', 'off', 'addListener', 'removeListener', 'prependListener']);

/** A stand-in for the addressed layer's `pick(layer)`; listeners hear the selected layer's `change`. */
export function addressed<T extends object>(stack: LayerStack, pick: (l: LayerParts) => T): T {
  return new Proxy({} as T, {
    get(_t, p) {
      if (typeof p === 'string' && EVENT_METHODS.has(p)) {
        return (event: string, fn: (...a: unknown[]) => void) => {
          const name = event === 'change' ? 'selected-change' : `selected-${event}`;
          (stack[p as 'on'] as (e: string, f: (...a: unknown[]) => void) => unknown).call(stack, name, fn);
          return undefined;
        };
      }
      const target = pick(stack.current());
      const v = Reflect.get(target, p) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}
