// One command payload read strictly (docs/show.md, Commands): its size before a byte is parsed, then one JSON parse
// and a check of each field's type and length. Only POST operations on /api/v1/ paths are commands; anything else
// is refused here, before the dispatch sees it.
import { SHOW_LIMITS } from '../limits.js';

export interface Command {
  id: string;
  /** The request path (`/api/v1/…`, possibly with a query string). */
  path: string;
  body?: unknown;
  /** Passed on as the request's `at` (scheduled operations); checked by whoever reads it. */
  at?: unknown;
}

export type ParsedCommand =
  | { ok: true; command: Command }
  /** `id` when it could be read, so the sender still gets its answer. */
  | { ok: false; kind: 'oversized' | 'malformed'; reason: string; id?: string };

const ID = new RegExp(`^[A-Za-z0-9_.:-]{1,${SHOW_LIMITS.idMaxLength}}$`);
const OP = /^POST (\/api\/v1\/\S*)$/;
const KEYS = new Set(['op', 'body', 'at', 'id']);

export function parseCommand(payload: Buffer): ParsedCommand {
  if (payload.byteLength > SHOW_LIMITS.commandMaxBytes)
    return { ok: false, kind: 'oversized', reason: `payload of ${payload.byteLength} bytes is larger than ${SHOW_LIMITS.commandMaxBytes}` };
  let value: unknown;
  try {
    value = JSON.parse(payload.toString('utf8'));
  } catch {
    return { ok: false, kind: 'malformed', reason: 'payload is not JSON' };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { ok: false, kind: 'malformed', reason: 'payload is not a JSON object' };
  const v = value as Record<string, unknown>;
  const idOk = typeof v.id === 'string' && v.id.length <= SHOW_LIMITS.idMaxLength && ID.test(v.id);
  const bad = (reason: string): ParsedCommand => ({ ok: false, kind: 'malformed', reason, ...(idOk ? { id: v.id as string } : {}) });
  if (!idOk) return bad(`id must be a string of 1 to ${SHOW_LIMITS.idMaxLength} characters from A-Z a-z 0-9 _ . : -`);
  const extra = Object.keys(v).find((k) => !KEYS.has(k));
  if (extra !== undefined) return bad(`unknown key ${JSON.stringify(extra.slice(0, 40))}`);
  if (typeof v.op !== 'string' || v.op.length > SHOW_LIMITS.opMaxLength)
    return bad(`op must be a string of at most ${SHOW_LIMITS.opMaxLength} characters`);
  const op = OP.exec(v.op);
  if (!op) return bad('op must be "POST /api/v1/…"');
  const command: Command = { id: v.id as string, path: op[1]! };
  if (v.body !== undefined) command.body = v.body;
  if (v.at !== undefined) command.at = v.at;
  return { ok: true, command };
}
