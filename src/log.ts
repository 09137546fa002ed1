// Structured JSON-lines logging on stdout (pino, asynchronous destination so logging never blocks the event loop).
import { pino, type Logger } from 'pino';

export type { Logger };

const destination = pino.destination({ dest: 1, sync: false, minLength: 0 });

/** Keys whose values never reach a log line, wherever they appear. */
const REDACT = [
  'apiKey',
  '*.apiKey',
  '*.*.apiKey',
  'key',
  'headers.authorization',
  'headers["x-api-key"]',
  'signature',
  '*.signature',
  'password',
  '*.password',
];

export const log: Logger = pino(
  {
    level: process.env.VJD_LOG_LEVEL ?? 'info',
    base: { app: 'vjd' },
    messageKey: 'msg',
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    redact: { paths: REDACT, censor: '[redacted]' },
  },
  destination,
);

/** Flushes buffered log lines; call before exiting. */
export function flushLog(): void {
  try {
    destination.flushSync();
  } catch {
    // stdout closed: nothing more to do
  }
}
