// Type-level views of the generated description (api-types.d.ts): the paths of each method relative to /api/v1, an
// operation's parameters, request body and success body, and the answers the page's state holds.
import type { paths } from './api-types';

export type Method = 'GET' | 'POST' | 'DELETE';
type Prefix = '/api/v1';
type Full<P extends string> = `${Prefix}${P}`;
type Rel<P> = P extends Full<infer R> ? R : never;
type Slot<M extends Method> = Lowercase<M>;

/** The operation (if any) a path item documents for a method. */
type OpOf<Item, M extends Method> = Item extends { [K in Slot<M>]?: infer O } ? NonNullable<O> : never;

/** Paths under /api/v1 that document `method`, spelled as the description does (`/effects/{index}`). */
export type ApiPaths<M extends Method> = { [P in keyof paths]: [OpOf<paths[P], M>] extends [never] ? never : Rel<P> }[keyof paths];

export type Op<M extends Method, P extends string> = Full<P> extends keyof paths ? OpOf<paths[Full<P>], M> : never;

export type Params<O, K extends 'path' | 'query'> = O extends { parameters: { [X in K]?: infer V } } ? Exclude<V, undefined> : never;

export type RequestBody<O> = O extends { requestBody?: never }
  ? undefined
  : O extends { requestBody?: { content: { 'application/json': infer B } } }
    ? B
    : undefined;

type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : never;
type Responses<O> = O extends { responses: infer R } ? R : never;

/** The JSON body of an operation's 2xx answers. */
export type Success<O> = { [S in keyof Responses<O>]: S extends 200 | 201 | 202 ? JsonOf<Responses<O>[S]> : never }[keyof Responses<O>];

/** What GET answers at a path. */
export type Got<P extends ApiPaths<'GET'>> = Success<Op<'GET', P>>;
