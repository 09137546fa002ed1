// The warning that the server refused the last config reload (GET /status `reloadError`, kept fresh by the status
// topic): which key, which file and why, shown until a reload succeeds and the field is null again.
import { useLive, type ReloadError } from '../store';

/** Long enough for any config key, file path or message the server writes; more is cut rather than laid out. */
const MAX_TEXT = 1000;
const text = (v: unknown): string => (typeof v === 'string' ? v.slice(0, MAX_TEXT) : '');

/** The field as sent, or null when it is absent or not the documented shape. */
function read(v: ReloadError | null | undefined): ReloadError | null {
  if (typeof v !== 'object' || v === null || typeof v.file !== 'string' || typeof v.message !== 'string') return null;
  return { key: typeof v.key === 'string' ? text(v.key) : null, file: text(v.file), message: text(v.message), at: text(v.at) };
}

function when(at: string): string {
  const t = new Date(at);
  return Number.isNaN(t.getTime()) ? at : t.toLocaleTimeString();
}

export function ReloadErrorBanner() {
  const e = read(useLive((s) => s.status?.reloadError));
  if (e === null) return null;
  return (
    <div class="banner" role="alert" data-testid="reload-error">
      <strong>Config reload refused</strong>
      {e.at !== '' && <small> at {when(e.at)}</small>}: the server keeps its previous settings.{' '}
      {e.key !== null && (
        <>
          Key <code data-testid="reload-error-key">{e.key}</code>{' '}
        </>
      )}
      in <code data-testid="reload-error-file">{e.file}</code>: <span data-testid="reload-error-message">{e.message}</span>
    </div>
  );
}
