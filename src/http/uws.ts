// Loads uWebSockets.js and tells truthfully whether its native binary or the slow pure-JS fallback answered.
import { createRequire } from 'node:module';
import type * as UwsTypes from 'uWebSockets.js';

export type Uws = typeof UwsTypes;
export type { HttpRequest, HttpResponse, TemplatedApp, us_listen_socket } from 'uWebSockets.js';

export interface HttpEngine {
  name: 'uWebSockets.js';
  /** True when the native binary loaded; false when the package fell back to its JS shim. */
  native: boolean;
  /** Binary the package looks for on this platform (node ABI specific). */
  binary: string;
  packageVersion: string;
}

const require = createRequire(import.meta.url);

/** A native addon's functions print as `[native code]`; the shim's are ordinary JS. */
export function isNativeModule(mod: unknown): boolean {
  if (!mod || (typeof mod !== 'object' && typeof mod !== 'function')) return false;
  const app = (mod as { App?: unknown }).App;
  return typeof app === 'function' && Function.prototype.toString.call(app).includes('[native code]');
}

let loaded: { uws: Uws; engine: HttpEngine } | null = null;

export function loadUws(): { uws: Uws; engine: HttpEngine } {
  if (loaded) return loaded;
  const uws = require('uWebSockets.js') as Uws;
  const pkg = require('uWebSockets.js/package.json') as { version: string };
  const engine: HttpEngine = {
    name: 'uWebSockets.js',
    native: isNativeModule(uws),
    binary: `uws_${process.platform}_${process.arch}_${process.versions.modules}.node`,
    packageVersion: pkg.version,
  };
  loaded = { uws, engine };
  return loaded;
}
