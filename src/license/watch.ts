// The license the server runs under: read at start, read again when its file changes or its expiry passes, and
// handed on after every reading so the listener opens or closes with it.
import { watchFile, unwatchFile } from 'node:fs';
import type { Logger } from '../log.js';
import type { LicenseCheck } from './license.js';
import { describeLicense, readLicense } from './store.js';

// A stat poll, not an fs watch: the file may not exist yet, and an activation replaces it by rename.
const POLL_MS = 500;
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Where the license is and which keys may sign it; read at every reading, so a config reload applies. */
export interface LicenseSettings {
  file(): string;
  trustedKeys(): string[];
}

export class LicenseWatch {
  private check: LicenseCheck = { valid: false, reason: 'not read yet' };
  private expiry: NodeJS.Timeout | null = null;
  private watched: string | null = null;
  private readonly onFile = (): void => void this.evaluate();

  constructor(
    private readonly settings: LicenseSettings,
    private readonly log: Logger,
    /** Runs after every reading (the listener opens only under a valid license). */
    private readonly afterRead: () => Promise<void>,
  ) {}

  get current(): LicenseCheck {
    return this.check;
  }

  /** Polls the file the settings name now, leaving the one polled before; a change of the file reads it again. */
  follow(): void {
    const file = this.settings.file();
    if (file === this.watched) return;
    if (this.watched !== null) unwatchFile(this.watched, this.onFile);
    this.watched = file;
    watchFile(file, { interval: POLL_MS, persistent: false }, this.onFile);
  }

  /** Reads the license, logs it when it changed, and schedules the next reading at its expiry. */
  async evaluate(): Promise<void> {
    const file = this.settings.file();
    const next = await readLicense(file, this.settings.trustedKeys());
    const changed = describeLicense(next) !== describeLicense(this.check);
    this.check = next;
    if (changed) {
      if (next.valid) this.log.info({ tier: next.tier, effectCeiling: next.effectCeiling }, describeLicense(next));
      else this.log.error({ file }, `${describeLicense(next)}; no port is opened until a license is activated`);
    }
    if (this.expiry) clearTimeout(this.expiry);
    this.expiry = null;
    if (next.valid && next.expiresAt) {
      // Just past the expiry instant, so the reading finds it expired.
      const ms = Math.min(Math.max(next.expiresAt.getTime() - Date.now() + 10, 0), MAX_TIMER_MS);
      this.expiry = setTimeout(() => void this.evaluate(), ms);
      this.expiry.unref();
    }
    await this.afterRead();
  }

  stop(): void {
    if (this.watched !== null) unwatchFile(this.watched, this.onFile);
    this.watched = null;
    if (this.expiry) clearTimeout(this.expiry);
    this.expiry = null;
  }
}
