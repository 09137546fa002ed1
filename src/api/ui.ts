// The control page: `/` redirects to `/ui/`, `/ui/…` serves the files `npm run build` bundled into dist/web/.
// Files are read and gzipped once at startup; hashed names are cached for a year, index.html is revalidated.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzip as gzipCb } from 'node:zlib';
import { ApiError } from '../errors.js';
import { DATA_FILE_LIMITS } from '../limits.js';
import { readRegularFile, RegularFileError } from '../util/regular-file.js';
import { defineRoute, type Reply, type RouteDef } from '../http/route.js';
import { contentEtag } from './docs.js';
import { ASSET_HEADERS, pageHeaders, pagePolicy } from '../http/page-headers.js';

const gzip = promisify(gzipCb);

export const UI_PREFIX = '/ui/';
/** dist/web beside dist/src (this file is dist/src/api/ui.js once compiled). */
export const UI_DIR = fileURLToPath(new URL('../../web/', import.meta.url));

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  json: 'application/json; charset=utf-8',
};
/** Only text compresses well enough to be worth a second copy. */
const COMPRESSIBLE = new Set(['html', 'js', 'css', 'svg', 'json']);
/** A name the bundler gave a content hash (`app-3FJ2KX7Q.js`): its bytes never change, so browsers keep it. */
const HASHED = /-[A-Z0-9]{8}\.[a-z]+$/;
const IMMUTABLE = 'public, max-age=31536000, immutable';
// The page loads nothing from elsewhere; blob: is the preview's frames, ws: the events socket on this host.
const PAGE_HEADERS = pageHeaders(pagePolicy('blob: data:'));

interface UiFile {
  body: Uint8Array;
  gz: Uint8Array | null;
  contentType: string;
  etag: string;
  cache: string;
}

export interface UiAssets {
  files: Map<string, UiFile>;
  /** Why there is no page (the web bundle was not built), or null. */
  missing: string | null;
  /** Paths left out as not a regular file or too large, for the caller to log. */
  skipped: string[];
}

/** Reads dist/web once; a missing folder leaves the routes answering 404 with the reason. */
export async function loadUiAssets(dir = UI_DIR): Promise<UiAssets> {
  const files = new Map<string, UiFile>();
  const skipped: string[] = [];
  let names: string[];
  try {
    names = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name);
  } catch {
    return { files, missing: `the control page is not built (no ${dir}): run npm run build`, skipped };
  }
  await Promise.all(
    names.map(async (name) => {
      const ext = name.slice(name.lastIndexOf('.') + 1);
      const contentType = TYPES[ext];
      if (contentType === undefined) return;
      // Checked on the open handle: a name listed as a file may be a pipe by the time it is opened.
      const buf = await readRegularFile(join(dir, name), DATA_FILE_LIMITS.uiFileMaxBytes).catch((err: unknown) => {
        if (err instanceof RegularFileError) return void skipped.push(err.path);
        throw err;
      });
      if (buf === undefined) return;
      const body = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
      const gz = COMPRESSIBLE.has(ext) && body.byteLength > 512 ? new Uint8Array(await gzip(body, { level: 9 })) : null;
      const cache = HASHED.test(name) ? IMMUTABLE : 'no-cache';
      files.set(name, { body, gz, contentType, etag: contentEtag(body), cache });
    }),
  );
  if (!files.has('index.html'))
    return { files, missing: `the control page is not built (no index.html in ${dir}): run npm run build`, skipped };
  return { files, missing: null, skipped };
}

function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  return header.split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (coding !== 'gzip' && coding !== '*') return false;
    return !params.some((p) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(p));
  });
}

function serveFile(assets: UiAssets, name: string, acceptEncoding: string | undefined): Reply {
  if (assets.missing !== null) throw new ApiError('NOT_FOUND', assets.missing);
  const file = assets.files.get(name);
  if (file === undefined) throw new ApiError('NOT_FOUND', `no file ${name.slice(0, 100)} in the control page`);
  const headers: Record<string, string> = {
    'Cache-Control': file.cache,
    Vary: 'Accept-Encoding',
    ...(name === 'index.html' ? PAGE_HEADERS : ASSET_HEADERS),
  };
  if (file.gz !== null && acceptsGzip(acceptEncoding)) {
    headers['Content-Encoding'] = 'gzip';
    // A distinct validator per representation (RFC 9110 8.8.3), so a cache never mixes the two bodies.
    return { body: file.gz, contentType: file.contentType, etag: `${file.etag.slice(0, -1)}-gz"`, headers };
  }
  return { body: file.body, contentType: file.contentType, etag: file.etag, headers };
}

/** Static routes, reachable without the API key (the page asks for it); hidden from the API description. */
export function uiRoutes(assets: UiAssets): RouteDef[] {
  const common = { auth: 'none' as const, tags: ['ui'], schema: {}, errors: [], hidden: true };
  const redirect = (): Reply => ({
    status: 302,
    headers: { Location: UI_PREFIX, 'Cache-Control': 'no-cache' },
    body: '',
    contentType: 'text/plain; charset=utf-8',
  });
  return [
    defineRoute({
      ...common,
      method: 'GET',
      path: '/',
      operationId: 'getRoot',
      summary: 'Redirects to the control page',
      responses: { 302: { description: 'to /ui/' } },
      handler: redirect,
    }),
    defineRoute({
      ...common,
      method: 'GET',
      path: '/ui',
      operationId: 'getUiBare',
      summary: 'Redirects to the control page',
      responses: { 302: { description: 'to /ui/' } },
      handler: redirect,
    }),
    defineRoute({
      ...common,
      method: 'GET',
      path: '/ui/*',
      operationId: 'getUi',
      summary: 'The control page and its files',
      responses: { 200: { description: 'a file of the page', contentType: 'application/octet-stream' } },
      handler: (req) => {
        const rest = req.url.slice(UI_PREFIX.length);
        // The name is only a key into the preloaded map, never a file path, so `..` cannot escape.
        return serveFile(assets, rest === '' ? 'index.html' : rest, req.headers['accept-encoding']);
      },
    }),
  ];
}
