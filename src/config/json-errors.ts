// Turns a config file that JSON.parse refused into a ConfigError naming the line, column and reason, never its content.
import { ConfigError } from './config-error.js';

/** Finds where JSON.parse gave up (V8 does not always say) without echoing file content, which may hold a key. */
function locateJsonError(text: string): { offset: number; reason: string } | null {
  let i = 0;
  const stop = (reason: string): never => {
    throw { offset: i, reason };
  };
  const ws = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i] as string)) i++;
  };
  const literal = (word: string): void => {
    if (text.startsWith(word, i)) i += word.length;
    else stop(`expected ${word}`);
  };
  const string = (): void => {
    i++;
    for (;;) {
      const c = text[i];
      if (c === undefined) stop('unterminated string');
      else if (c === '"') return void i++;
      else if (c === '\\') {
        const e = text[i + 1];
        if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
        else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else stop('invalid escape in string');
      } else if (c < ' ') stop('control character in string (write it escaped)');
      else i++;
    }
  };
  const value = (depth: number): void => {
    if (depth > 256) stop('nested too deeply');
    ws();
    const c = text[i];
    if (c === undefined) return stop('unexpected end of file');
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      i++;
      ws();
      if (text[i] === close) return void i++;
      for (;;) {
        if (c === '{') {
          ws();
          if (text[i] !== '"') stop('expected a double-quoted property name');
          string();
          ws();
          if (text[i] !== ':') stop("expected ':' after property name");
          i++;
        }
        value(depth + 1);
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === close) return void i++;
        else stop(text[i] === undefined ? 'unexpected end of file' : `expected ',' or '${close}'`);
      }
    }
    if (c === '"') return string();
    if (c === 't' || c === 'f' || c === 'n') return literal(c === 't' ? 'true' : c === 'f' ? 'false' : 'null');
    const number = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
    number.lastIndex = i;
    if (!number.test(text)) stop(`unexpected character ${JSON.stringify(c)}`);
    i = number.lastIndex;
  };
  try {
    value(0);
    ws();
    if (i < text.length) stop('unexpected content after the JSON value');
    return null;
  } catch (e) {
    return e !== null && typeof e === 'object' && 'reason' in e ? (e as { offset: number; reason: string }) : null;
  }
}

/** The parsed JSON value, or a ConfigError saying where and why the text is not JSON. */
export function parseJson(raw: string, file: string): unknown {
  // Editors on some systems prepend a byte-order mark, which JSON.parse refuses.
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    const where = locateJsonError(text);
    let detail = 'invalid JSON';
    if (where) {
      const before = text.slice(0, where.offset);
      const line = before.split('\n').length;
      const column = where.offset - before.lastIndexOf('\n');
      detail = `invalid JSON at line ${line} column ${column}: ${where.reason}`;
    }
    throw new ConfigError({ source: file, key: '', file, detail });
  }
}
