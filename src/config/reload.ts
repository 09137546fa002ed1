// The outcome of the last config reload as GET /status and `vjd status` show it: the refused one (key, file,
// message, time) until a reload succeeds, so a change that did not apply is visible, not only logged.
import type { ConfigError } from './config-error.js';

export interface ReloadError {
  /** Dotted key at fault; null when the whole file is (unreadable, not JSON). */
  key: string | null;
  file: string;
  message: string;
  /** ISO time of the refused reload. */
  at: string;
}

export class ReloadReport {
  /** A new object on every change, so readers can compare by identity. */
  error: ReloadError | null = null;

  refused(err: ConfigError, watchedFile: string): void {
    this.error = {
      key: err.key === '' ? null : err.key,
      file: err.file ?? watchedFile,
      message: err.message,
      at: new Date().toISOString(),
    };
  }

  succeeded(): void {
    this.error = null;
  }
}
