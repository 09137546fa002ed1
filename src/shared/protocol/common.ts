// What every worker protocol shares: a worker's log line, and the one failure that answers any request (the
// worker's own refusal, an error it caught, or a request it reached past its deadline), with how each side writes
// and reads them. A worker's catch around a request is one call; a client reads every failed call the same way,
// whether the worker said so or never answered.
import { answered, type RpcOutcome } from '../rpc.js';

export type LogLevel = 'info' | 'warn' | 'error';

/** A worker's log line, written by the main thread's logger. */
export interface LogMessage {
  t: 'log';
  level: LogLevel;
  msg: string;
  fields?: Record<string, unknown>;
}

/** How worker code logs: the line goes to the main thread as a LogMessage. */
export type LogFn = (level: LogLevel, msg: string, fields?: Record<string, unknown>) => void;

/** The reasons any request can fail with: `expired`, past its deadline (dropped undone); `failed`, anything else. */
export type CommonReason = 'expired' | 'failed';

/**
 * Why a request did not do what it asked. `reason` is one of the request kind's words (its protocol lists them);
 * `message` says it for a person; `details` travels on into the client's error where the kind has any.
 */
export interface Failure<R extends string = CommonReason> {
  ok: false;
  reason: R;
  message: string;
  details?: Record<string, unknown>;
}

/**
 * The answer of every failed request, whatever its kind; `id` is its envelope's (src/shared/rpc.ts). A request
 * past its envelope's deadline is answered this way with reason `expired`: the one expiry of every protocol.
 */
export type FailureReply<R extends string = CommonReason> = { t: 'failure'; id: number } & Failure<R>;

export function failure<R extends string>(id: number, reason: R, message: string, details?: Record<string, unknown>): FailureReply<R> {
  return { t: 'failure', id, ok: false, reason, message, ...(details ? { details } : {}) };
}

/** Answers request `id` with what `err` says; `reason` where the kind has a word of its own for a thrown error. */
export function replyFailure<R extends string = 'failed'>(
  post: (m: FailureReply<R>) => void,
  id: number,
  err: unknown,
  reason = 'failed' as R,
): void {
  post(failure(id, reason, err instanceof Error ? err.message : String(err)));
}

/** A LogFn that posts its lines to the main thread. */
export function logTo(post: (m: LogMessage) => void): LogFn {
  return (level, msg, fields) => post({ t: 'log', level, msg, fields });
}

/**
 * A call's outcome read one way: the worker's answer (its success, or its FailureReply), else a Failure of its
 * own: `expired` when nobody answered in time, `failed` when the worker was gone or the request never left.
 */
export function replyOf<T>(o: RpcOutcome<T>): T | Failure {
  if (answered(o)) return o;
  return { ok: false, reason: o.rpc === 'timeout' ? 'expired' : 'failed', message: o.message };
}

/** What the main thread's logger must offer to write a worker's lines. */
export type LogSink = Record<LogLevel, (fields: Record<string, unknown>, msg: string) => void>;

/** Writes a worker's log line with `fields` of the client's own (which worker it came from) first. */
export function relayLog(log: LogSink, m: LogMessage, fields: Record<string, unknown> = {}): void {
  log[m.level]({ ...fields, ...m.fields }, m.msg);
}
