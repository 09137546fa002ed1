// Parses palette files (vjd JSON and GIMP .gpl) into a name and upper-case `#RRGGBB` colors, with file/line/reason errors.

export const MAX_PALETTE_BYTES = 64 * 1024;
export const MAX_PALETTE_COLORS = 256;
export const MAX_PALETTE_NAME = 128;

export interface ParsedPalette {
  name: string;
  colors: string[];
}

export class PaletteParseError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly reason: string,
  ) {
    super(`${file}:${line}: ${reason}`);
    this.name = 'PaletteParseError';
  }
}

/** Lower-case `[a-z0-9-]` id from a file name (directories and extension dropped); never empty. */
export function paletteIdFromFile(fileName: string): string {
  const id = stem(fileName)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return id === '' ? 'palette' : id;
}

/** `deep-ocean_2.json` → `Deep Ocean 2`: the name a palette gets when its file does not give one. */
export function paletteNameFromFile(fileName: string): string {
  const words = stem(fileName)
    .split(/[\s_-]+/)
    .filter((w) => w !== '');
  const name = words
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ')
    .slice(0, MAX_PALETTE_NAME);
  return name === '' ? 'Palette' : name;
}

function stem(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

/** 1-based line of a character offset. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  const end = Math.min(Math.max(offset, 0), text.length);
  for (let i = 0; i < end; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

const HEX6 = /^#[0-9a-f]{6}$/i;
const HEX3 = /^#[0-9a-f]{3}$/i;
const HEX_ALPHA = /^#(?:[0-9a-f]{4}|[0-9a-f]{8})$/i;

/** `#rgb` / `#rrggbb` (any case) → `#RRGGBB`; otherwise the reason it is refused. */
function normalizeColor(value: unknown): string | { reason: string } {
  if (typeof value !== 'string') return { reason: `color ${JSON.stringify(value) ?? String(value)} is not a string; use "#RRGGBB"` };
  if (HEX6.test(value)) return value.toUpperCase();
  if (HEX3.test(value)) return `#${[...value.slice(1)].map((c) => c + c).join('')}`.toUpperCase();
  if (HEX_ALPHA.test(value)) return { reason: `color "${value}" has an alpha part; palettes are opaque, use "#RRGGBB"` };
  return { reason: `color ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)} is not "#RRGGBB" or "#RGB"` };
}

/** Offset where a JSON text stops being valid, for engines whose error message gives no position. */
function jsonErrorOffset(s: string): number | undefined {
  let i = 0;
  const NUM = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  const fail = (): never => {
    throw i;
  };
  const ws = (): void => {
    while (i < s.length && ' \t\n\r'.includes(s[i]!)) i++;
  };
  const str = (): void => {
    for (i++; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c === 34) return void i++;
      if (c < 32) fail();
      if (c === 92) {
        i++;
        if (s[i] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(s.slice(i + 1, i + 5))) fail();
          i += 4;
        } else if (!'"\\/bfnrt'.includes(s[i] ?? '?')) fail();
      }
    }
    fail();
  };
  const value = (): void => {
    ws();
    const c = s[i];
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      i++;
      ws();
      if (s[i] === close) return void i++;
      for (;;) {
        if (c === '{') {
          ws();
          if (s[i] !== '"') fail();
          str();
          ws();
          if (s[i] !== ':') fail();
          i++;
        }
        value();
        ws();
        if (s[i] === close) return void i++;
        if (s[i] !== ',') fail();
        i++;
      }
    }
    if (c === '"') return str();
    for (const word of ['true', 'false', 'null']) if (s.startsWith(word, i)) return void (i += word.length);
    NUM.lastIndex = i;
    if (!NUM.exec(s)) fail();
    i = NUM.lastIndex;
  };
  try {
    value();
    ws();
    return i < s.length ? i : undefined;
  } catch (at) {
    return typeof at === 'number' ? at : undefined; // a RangeError: nesting too deep to walk
  }
}

/** vjd JSON palette: `{ "name": "...", "colors": ["#RRGGBB", ...] }`; other keys are ignored. */
export function parsePaletteJson(text: string, fileLabel: string): ParsedPalette {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const fail = (line: number, reason: string): never => {
    throw new PaletteParseError(fileLabel, line, reason);
  };
  let raw: unknown;
  try {
    raw = JSON.parse(src);
  } catch (err) {
    const msg = (err as Error).message;
    const pos = /position (\d+)/.exec(msg);
    const offset = pos ? Number(pos[1]) : jsonErrorOffset(src);
    // V8 quotes the file's text in some messages; the line number already says where.
    const short = msg.replace(/, ".*" is not valid JSON$/s, '').replace(/ in JSON at position \d+.*$/s, '');
    return fail(offset === undefined ? 1 : lineAt(src, offset), `invalid JSON: ${short}`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return fail(1, 'a palette file holds one JSON object {"name", "colors"}');
  const obj = raw as Record<string, unknown>;
  const keyLine = (key: string): number => {
    const at = src.indexOf(`"${key}"`);
    return at < 0 ? 1 : lineAt(src, at);
  };

  let name: string;
  if (obj.name === undefined) name = paletteNameFromFile(fileLabel);
  else if (typeof obj.name !== 'string' || obj.name.trim() === '' || obj.name.trim().length > MAX_PALETTE_NAME) {
    return fail(keyLine('name'), `"name" must be a string of 1 to ${MAX_PALETTE_NAME} characters`);
  } else name = obj.name.trim();

  const list = obj.colors;
  if (!Array.isArray(list)) return fail(keyLine('colors'), '"colors" must be an array of "#RRGGBB" strings');
  if (list.length === 0) return fail(keyLine('colors'), '"colors" is empty; a palette needs at least 1 color');
  if (list.length > MAX_PALETTE_COLORS)
    return fail(keyLine('colors'), `"colors" has ${list.length} entries; at most ${MAX_PALETTE_COLORS}`);
  const colors: string[] = [];
  const from = Math.max(src.indexOf('"colors"'), 0);
  for (const value of list) {
    const c = normalizeColor(value);
    if (typeof c === 'string') {
      colors.push(c);
      continue;
    }
    // Search after the "colors" key so the same text inside "name" does not give the wrong line.
    const needle = typeof value === 'string' ? `"${value}"` : (JSON.stringify(value) ?? '');
    let at = needle === '' ? -1 : src.indexOf(needle, from);
    if (at < 0 && typeof value === 'string') at = src.indexOf(JSON.stringify(value), from);
    return fail(at < 0 ? 1 : lineAt(src, at), c.reason);
  }
  return { name, colors };
}

/** GIMP palette: `GIMP Palette` header, optional `Name:`, `Columns:` and `#` comments, then `R G B [name]` lines. */
export function parseGpl(text: string, fileLabel: string): ParsedPalette {
  const lines = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).split(/\r\n|\n|\r/);
  const fail = (line: number, reason: string): never => {
    throw new PaletteParseError(fileLabel, line, reason);
  };
  const first = lines.findIndex((l) => l.trim() !== '');
  if (first < 0) return fail(1, 'empty file; a GIMP palette starts with the line "GIMP Palette"');
  if (lines[first]!.trim() !== 'GIMP Palette') return fail(first + 1, 'the first line must be "GIMP Palette"');

  let name: string | undefined;
  const colors: string[] = [];
  for (let i = first + 1; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '' || line.startsWith('#')) continue;
    const header = /^(Name|Columns)\s*:\s*(.*)$/i.exec(line);
    if (header) {
      if (header[1]!.toLowerCase() === 'name' && name === undefined && header[2]!.trim() !== '') {
        name = header[2]!.trim();
        if (name.length > MAX_PALETTE_NAME) fail(i + 1, `"Name:" is longer than ${MAX_PALETTE_NAME} characters`);
      }
      continue;
    }
    const m = /^(\d+)\s+(\d+)\s+(\d+)(?:\s+.*)?$/.exec(line);
    if (!m)
      return fail(
        i + 1,
        `expected a color line "R G B [name]" with values 0-255, got ${JSON.stringify(line.length > 40 ? `${line.slice(0, 40)}…` : line)}`,
      );
    const rgb = [m[1]!, m[2]!, m[3]!].map(Number);
    const bad = rgb.find((v) => v > 255);
    if (bad !== undefined) return fail(i + 1, `color value ${bad} is outside 0-255`);
    if (colors.length === MAX_PALETTE_COLORS) return fail(i + 1, `more than ${MAX_PALETTE_COLORS} colors`);
    colors.push(`#${rgb.map((v) => v.toString(16).padStart(2, '0')).join('')}`.toUpperCase());
  }
  if (colors.length === 0) return fail(lines.length, 'no color lines; a palette needs at least 1 color');
  return { name: name ?? paletteNameFromFile(fileLabel), colors };
}
