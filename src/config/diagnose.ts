// Checks a parsed config file against the schema and the rules across keys, and words each failure as a ConfigError:
// the full dotted key, a "did you mean" hint for an unknown key, and a preview of the bad value that never shows a secret.
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { audioProblem, DEFAULT_AUDIO } from './audio.js';
import { ConfigError } from './config-error.js';
import { DEFAULT_DMX, DEFAULT_MIDI, dmxProblem } from './desks.js';
import { hostSyntaxProblem } from './host.js';
import { outputProblem } from '../shared/output-kinds/index.js';
import { ConfigFileSchema, objectBranch, schemaAt, type ConfigFile } from './schema.js';
import { showProblem } from './show.js';
import { timecodeProblem } from './timecode.js';
import { pixelmapProblem } from './pixelmap.js';

const checkFile = Compile(ConfigFileSchema);

/** A schema's `description`: what a valid value is, in the words an error message uses. */
export function describe(schema: TSchema | undefined): string | undefined {
  return (schema as { description?: unknown } | undefined)?.description as string | undefined;
}

// A broker URL refused by the schema may be refused for carrying a password: it is shown by its length only.
const isSecretKey = (key: string): boolean => key.endsWith('apiKey') || key === 'show.broker.url';

/** Shows the offending value without ever echoing a key. */
export function preview(value: unknown, secret: boolean): string {
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return `an array of ${value.length} items`;
  if (value !== null && typeof value === 'object') return 'an object';
  if (secret) return typeof value === 'string' ? `a string of ${value.length} characters` : `a ${typeof value}`;
  const text = typeof value === 'number' && !Number.isFinite(value) ? String(value) : JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function dotted(segments: readonly string[]): string {
  return segments.reduce((acc, s) => (/^\d+$/.test(s) ? `${acc}[${s}]` : acc ? `${acc}.${s}` : s), '');
}

function quoteKey(key: string): string {
  return JSON.stringify(key.length > 100 ? `${key.slice(0, 97)}...` : key);
}

/** Levenshtein distance, to suggest the key an operator most likely meant. */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length] ?? 0;
}

interface SchemaNode {
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
}

/** Walks value and schema together so every unknown key is reported by its full name, first one wins. */
function findUnknownKey(value: unknown, node: SchemaNode, path: string[]): { path: string[]; hint?: string } | null {
  const schema = objectBranch(node);
  if (Array.isArray(value) && schema.items) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnknownKey(value[i], schema.items, [...path, String(i)]);
      if (found) return found;
    }
  } else if (value !== null && typeof value === 'object' && !Array.isArray(value) && schema.properties) {
    const known = schema.properties;
    for (const key of Object.keys(value)) {
      if (Object.hasOwn(known, key)) continue;
      const hint = Object.keys(known).find((k) => distance(k.toLowerCase(), key.toLowerCase()) <= 2);
      return hint === undefined ? { path: [...path, key] } : { path: [...path, key], hint: dotted([...path, hint]) };
    }
    for (const [key, child] of Object.entries(value)) {
      const found = findUnknownKey(child, known[key] as SchemaNode, [...path, key]);
      if (found) return found;
    }
  }
  return null;
}

function valueAt(root: unknown, segments: readonly string[]): unknown {
  let node = root;
  for (const s of segments) node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[s] : undefined;
  return node;
}

/** The parsed file checked key by key; the first problem found is thrown as a ConfigError naming its key. */
export function validateFile(value: unknown, file: string): ConfigFile {
  const fail = (key: string, detail: string): never => {
    throw new ConfigError({ source: file, key, file, detail });
  };
  const unknown = findUnknownKey(value, ConfigFileSchema as SchemaNode, []);
  if (unknown) {
    const key = dotted(unknown.path);
    fail(key, `unknown key ${quoteKey(key)}${unknown.hint ? ` (did you mean ${quoteKey(unknown.hint)}?)` : ''}`);
  }
  if (!checkFile.Check(value)) {
    const error = checkFile.Errors(value)[0];
    const segments = (error?.instancePath ?? '')
      .split('/')
      .slice(1)
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    const key = dotted(segments);
    if (error?.keyword === 'required') {
      const missing = (error.params as { requiredProperties?: string[] }).requiredProperties?.[0] ?? '?';
      const full = dotted([...segments, missing]);
      fail(full, `${full} is required`);
    }
    const got = preview(valueAt(value, segments), isSecretKey(key));
    if (key === '') fail('', `the file must contain a JSON object (got ${got})`);
    const expected = describe(schemaAt(segments));
    fail(key, expected ? `${key} must be ${expected} (got ${got})` : `${key} ${error?.message ?? 'is invalid'}`);
  }
  const config = value as ConfigFile;
  // Test inputs and streams share one id space: thumbnail and select routes address live inputs by id.
  const seen = new Map<string, string>();
  const inputs = [
    ...(config.live?.test ?? []).map((t, i) => ({ id: t.id, at: `live.test[${i}]` })),
    ...(config.live?.streams ?? []).map((s, i) => ({ id: s.id, at: `live.streams[${i}]` })),
  ];
  for (const { id, at } of inputs) {
    const lower = id.toLowerCase();
    const previous = seen.get(lower);
    if (previous !== undefined) fail(`${at}.id`, `${at}.id ${JSON.stringify(id)} is already used by ${previous}`);
    seen.set(lower, at);
  }
  const audio = audioProblem(config.audio);
  if (audio) fail(audio.key, audio.message);
  const dmx = dmxProblem(config.dmx);
  if (dmx) fail(dmx.key, dmx.message);
  const show = showProblem(config.show);
  if (show) fail(show.key, show.message);
  const timecode = timecodeProblem(config.timecode, {
    audioInputs: config.audio?.inputs ?? DEFAULT_AUDIO.inputs,
    dmxProtocol: config.dmx?.protocol ?? DEFAULT_DMX.protocol,
    midiEnabled: config.midi?.enabled ?? DEFAULT_MIDI.enabled,
  });
  if (timecode) fail(timecode.key, timecode.message);
  const pixelmap = pixelmapProblem(config.pixelmap);
  if (pixelmap) fail(pixelmap.key, pixelmap.message);
  const outputIds = new Map<string, string>();
  for (const [i, o] of (config.outputs ?? []).entries()) {
    const at = `outputs[${i}]`;
    const problem = outputProblem(o);
    if (problem) fail(`${at}.${problem.field}`, `${at}.${problem.field} ${problem.reason}`);
    const previous = outputIds.get(o.id.toLowerCase());
    if (previous !== undefined) fail(`${at}.id`, `${at}.id ${JSON.stringify(o.id)} is already used by ${previous}`);
    outputIds.set(o.id.toLowerCase(), at);
  }
  const host = config.server?.host;
  const hostProblem = host === undefined ? null : hostSyntaxProblem(host);
  if (host !== undefined && hostProblem !== null) fail('server.host', hostMessage(host, hostProblem));
  return config;
}

/** A flag or env value the schema refuses; the value is previewed, an API key only by its length. */
export function overrideError(source: string, key: string, expected: string | undefined, got: unknown): ConfigError {
  return new ConfigError({
    source,
    key,
    file: null,
    detail: `${key} must be ${expected ?? 'valid'} (got ${preview(got, isSecretKey(key))})`,
  });
}

/** One wording for a bad server.host, whether it came from the file, a flag or the environment. */
export function hostMessage(host: string, problem: string): string {
  return `server.host must be an IP address or a host name (got ${preview(host, false)}: ${problem})`;
}
