// Interactive API documentation: Swagger UI served from the local swagger-ui-dist package, plus the OpenAPI YAML route.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import Type from 'typebox';
import { ApiError } from '../errors.js';
import { API_PREFIX, defineRoute, type RouteDef } from '../http/route.js';
import { ASSET_HEADERS, pageHeaders, pagePolicy } from '../http/page-headers.js';

export interface DocsAsset {
  body: Uint8Array;
  contentType: string;
  etag: string;
}

/** Strong ETag from the content, so a browser revalidates with a 304 instead of downloading again. */
export function contentEtag(body: Uint8Array | string): string {
  return `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;
}

const CACHING = {
  ETag: { description: 'strong validator of the content', schema: Type.String({ pattern: '^"[A-Za-z0-9_-]+"$' }) },
  'Cache-Control': { description: 'always `no-cache`: revalidate with If-None-Match', schema: Type.Literal('no-cache') },
};
const NOT_MODIFIED = { description: 'Not modified: If-None-Match matched the current ETag (no body).', headers: CACHING };

export interface DocsAssets {
  files: Map<string, DocsAsset>;
}

const DOCS_PATH = `${API_PREFIX}/docs`;
const OPENAPI_PATH = `${API_PREFIX}/openapi.yaml`;
const HTML_NAME = 'index.html';
const HTML_TYPE = 'text/html; charset=utf-8';
const YAML_TYPE = 'application/yaml; charset=utf-8';
// Swagger UI draws its icons from data: URIs in its stylesheet; its requests (the description, Try it out) go here.
const PAGE_HEADERS = pageHeaders(pagePolicy('data:'));

/** Files copied verbatim from swagger-ui-dist; everything the page loads comes from this server. */
const DIST_FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'index.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

// A separate script file rather than inline code, so a Content-Security-Policy without 'unsafe-inline' still works.
const INIT_SCRIPT = `// Starts Swagger UI on the vjd OpenAPI description.
window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '${OPENAPI_PATH}',
    dom_id: '#swagger-ui',
    validatorUrl: null,
    deepLinking: true,
    persistAuthorization: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: 'StandaloneLayout'
  });
});
`;

const asset = (name: string): string => `${DOCS_PATH}/${name}`;

const HTML = `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>vjd API</title>
    <link rel="stylesheet" type="text/css" href="${asset('swagger-ui.css')}">
    <link rel="stylesheet" type="text/css" href="${asset('index.css')}">
    <link rel="icon" type="image/png" href="${asset('favicon-32x32.png')}" sizes="32x32">
    <link rel="icon" type="image/png" href="${asset('favicon-16x16.png')}" sizes="16x16">
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="${asset('swagger-ui-bundle.js')}" charset="utf-8"></script>
    <script src="${asset('swagger-ui-standalone-preset.js')}" charset="utf-8"></script>
    <script src="${asset('swagger-init.js')}" charset="utf-8"></script>
  </body>
</html>
`;

/** Reads the page's files once at startup; requests are then served from memory. */
export async function loadDocsAssets(): Promise<DocsAssets> {
  const distDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const files = new Map<string, DocsAsset>();
  const loaded = await Promise.all(
    Object.entries(DIST_FILES).map(async ([name, contentType]) => {
      const body = await readFile(join(distDir, name));
      const bytes = new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
      return [name, { body: bytes, contentType, etag: contentEtag(bytes) }] as const;
    }),
  );
  for (const [name, file] of loaded) files.set(name, file);
  const encoder = new TextEncoder();
  const own = (text: string, contentType: string): DocsAsset => ({ body: encoder.encode(text), contentType, etag: contentEtag(text) });
  files.set('swagger-init.js', own(INIT_SCRIPT, 'text/javascript; charset=utf-8'));
  files.set(HTML_NAME, own(HTML, HTML_TYPE));
  return { files };
}

/** The docs page, its assets and the OpenAPI YAML; all reachable without an API key. */
export function docsRoutes(opts: { assets: DocsAssets; openapiYaml: () => string }): RouteDef[] {
  const { files } = opts.assets;
  let yamlCache: { text: string; etag: string } | null = null;
  const yaml = (): { text: string; etag: string } => {
    const text = opts.openapiYaml();
    if (yamlCache?.text !== text) yamlCache = { text, etag: contentEtag(text) };
    return yamlCache;
  };
  return [
    defineRoute({
      method: 'GET',
      path: DOCS_PATH,
      auth: 'none',
      summary: 'Interactive API documentation',
      description: 'Swagger UI page for this description; every file it loads is served by vjd itself.',
      tags: ['docs'],
      operationId: 'getDocs',
      feature: 'docs',
      schema: {},
      responses: { 200: { description: 'The documentation page.', contentType: HTML_TYPE, headers: CACHING }, 304: NOT_MODIFIED },
      errors: [],
      handler: () => {
        const page = files.get(HTML_NAME);
        if (page === undefined) throw new ApiError('NOT_FOUND');
        return {
          body: page.body,
          contentType: page.contentType,
          etag: page.etag,
          headers: { 'Cache-Control': 'no-cache', ...PAGE_HEADERS },
        };
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${DOCS_PATH}/:asset`,
      auth: 'none',
      summary: 'A file of the documentation page',
      tags: ['docs'],
      operationId: 'getDocsAsset',
      schema: { params: Type.Object({ asset: Type.String({ minLength: 1, maxLength: 64 }) }) },
      // An odd name is just an unknown file.
      invalid: () => new ApiError('NOT_FOUND'),
      responses: { 200: { description: 'The file.', contentType: 'application/octet-stream' } },
      errors: ['NOT_FOUND'],
      hidden: true,
      handler: (req) => {
        // The name is only a key into the preloaded map, never a file path, so `..` and friends cannot escape.
        const file = files.get(req.params.asset);
        if (file === undefined) throw new ApiError('NOT_FOUND');
        return {
          body: file.body,
          contentType: file.contentType,
          etag: file.etag,
          headers: { 'Cache-Control': 'public, max-age=86400', ...ASSET_HEADERS },
        };
      },
    }),
    defineRoute({
      method: 'GET',
      path: OPENAPI_PATH,
      auth: 'none',
      summary: 'This OpenAPI 3.0 description',
      description: 'The OpenAPI 3.0.3 description of the control-surface API, generated from the routes vjd serves.',
      tags: ['docs'],
      operationId: 'getOpenApi',
      feature: 'openapi',
      schema: {},
      responses: { 200: { description: 'The OpenAPI document as YAML.', contentType: YAML_TYPE, headers: CACHING }, 304: NOT_MODIFIED },
      errors: [],
      handler: () => {
        const doc = yaml();
        return { body: doc.text, contentType: YAML_TYPE, etag: doc.etag, headers: { 'Cache-Control': 'no-cache', ...ASSET_HEADERS } };
      },
    }),
  ];
}
