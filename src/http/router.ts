// Compiles route objects once at startup: schema validators, path matchers and the method table for 404/405.
import { Compile } from 'typebox/compile';
import type { TSchema } from 'typebox';
import { ApiError } from '../errors.js';
import type { Method, RouteDef } from './route.js';

type Validator = { Check(v: unknown): boolean; Errors(v: unknown): { instancePath: string; message: string }[] };

export interface CompiledRoute {
  def: RouteDef;
  /** uWS pattern (same syntax as the route path). */
  pattern: string;
  paramNames: string[];
  /** Whether raw parameter values (in path order) fit the route's parameter patterns; the engine's own router does not check them. */
  accepts(values: ReadonlyArray<string | undefined>): boolean;
  validate(where: 'query' | 'params' | 'body', value: unknown): ApiError | null;
}

export interface Router {
  routes: CompiledRoute[];
  /** Methods served on a concrete path (for 405 and Allow); empty when no route matches the path. */
  methodsFor(path: string): Method[];
  /** The route serving method + path with its raw parameter values; null when none does. */
  find(method: string, path: string): { route: CompiledRoute; params: string[] } | null;
  /** Capability features of the routes served. */
  features: string[];
}

export function compileRoutes(defs: RouteDef[]): Router {
  const seen = new Set<string>();
  const routes = defs.map((def) => {
    const key = `${def.method} ${def.path}`;
    if (seen.has(key)) throw new Error(`duplicate route ${key}`);
    seen.add(key);
    return compileRoute(def);
  });
  const matchers = routes.map((r) => ({ route: r, method: r.def.method as string, re: pathRegex(r.def.path) }));
  const features = [...new Set(defs.flatMap((d) => (d.feature ? [d.feature] : [])))].sort();
  return {
    routes,
    features,
    find(method, path) {
      const m = method.toUpperCase();
      for (const x of matchers) {
        if (x.method !== m) continue;
        const hit = x.re.exec(path);
        if (hit && x.route.accepts(hit.slice(1))) return { route: x.route, params: hit.slice(1) };
      }
      return null;
    },
    methodsFor(path) {
      const out = new Set<Method>();
      for (const m of matchers) {
        const hit = m.re.exec(path);
        if (hit && m.route.accepts(hit.slice(1))) out.add(m.method as Method);
      }
      return [...out];
    },
  };
}

function compileRoute(def: RouteDef): CompiledRoute {
  const validators: Partial<Record<'query' | 'params' | 'body', Validator>> = {};
  for (const where of ['query', 'params', 'body'] as const) {
    const schema = def.schema[where] as TSchema | undefined;
    if (schema) validators[where] = Compile(schema) as unknown as Validator;
  }
  const paramNames = def.path
    .split('/')
    .filter((s) => s.startsWith(':'))
    .map((s) => s.slice(1));
  for (const name of Object.keys(def.paramPatterns ?? {}))
    if (!paramNames.includes(name)) throw new Error(`route ${def.method} ${def.path}: pattern for unknown parameter ${name}`);
  const checks = paramNames.map((name) => {
    const source = def.paramPatterns?.[name];
    return source === undefined ? null : new RegExp(`^(?:${source})$`);
  });
  const anyCheck = checks.some((c) => c !== null);
  return {
    def,
    pattern: def.path,
    paramNames,
    accepts(values) {
      if (!anyCheck) return true;
      return checks.every((re, i) => re === null || re.test(values[i] ?? ''));
    },
    validate(where, value) {
      const v = validators[where];
      if (!v || v.Check(value)) return null;
      const first = v.Errors(value)[0];
      const problem = first ? describeProblem(where, first.instancePath, first.message) : `${where} is not valid`;
      return def.invalid ? def.invalid(where, problem, value) : new ApiError('INVALID_REQUEST', problem);
    },
  };
}

function describeProblem(where: string, instancePath: string, message: string): string {
  const field = instancePath === '' ? where : `${where}${instancePath.replace(/\//g, '.')}`;
  return `${field} ${message}`;
}

function pathRegex(path: string): RegExp {
  const body = path
    .split('/')
    .map((seg) => (seg.startsWith(':') ? '([^/]+)' : seg === '*' ? '.*' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${body}$`);
}
