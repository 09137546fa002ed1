// `vjd status` text for what a running server reports beyond its state: a refused config reload, OSC moved to
// loopback. The server's strings are shown printable and bounded, whatever they hold.
const MAX_TEXT = 500;

const printable = (v: unknown): string =>
  String(v)
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, '?')
    .slice(0, MAX_TEXT);

export function statusNotes(live: Record<string, unknown>): string[] {
  const out: string[] = [];
  const reload = live.reloadError as { key?: unknown; file?: unknown; message?: unknown; at?: unknown } | null | undefined;
  if (reload && typeof reload === 'object') {
    const key = typeof reload.key === 'string' ? reload.key : '(the whole file)';
    out.push(
      `config reload refused at ${printable(reload.at)}, still on the last good config: key ${printable(key)} in ${printable(reload.file)}: ${printable(reload.message)}`,
    );
  }
  const restricted = (live.osc as { restricted?: unknown } | undefined)?.restricted;
  if (typeof restricted === 'string') out.push(`OSC listens on loopback only: ${printable(restricted)}`);
  return out;
}
