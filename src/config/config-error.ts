// The error every config failure throws: the dotted key, the file when the value came from one, and the source
// (file path, env var or flag) the message names. Its own module so the loader and its diagnostics share it.

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  /** Dotted key (`server.port`, `live.test[0].id`); empty when the whole file is at fault. */
  readonly key: string;
  /** Absolute config file path when the bad value came from the file, else null. */
  readonly file: string | null;
  /** Where the value came from: the file path, an env var name (`VJD_PORT`) or a flag (`--port`). */
  readonly source: string;

  constructor(opts: { source: string; key: string; file: string | null; detail: string }) {
    super(`config error in ${opts.source}: ${opts.detail}`);
    this.key = opts.key;
    this.file = opts.file;
    this.source = opts.source;
  }
}
