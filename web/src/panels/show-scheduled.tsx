// The show panel's scheduled operations (`at`, docs/scheduling.md): those waiting, each with Cancel, and the last ones
// that ran with how late their frame was.
import { useState } from 'preact/hooks';
import { call, problem } from '../api';
import { changed } from '../live';
import { notify } from '../store';
import { clock, type Recent, recentMeta, type Waiting } from './show-lines';

const TONE: Record<Recent['state'], string> = { applied: 'ok', running: 'warn', failed: 'error' };

export function Scheduled(props: { waiting: Waiting[]; recent: Recent[] }) {
  const [busy, setBusy] = useState<string | null>(null);
  const cancel = async (w: Waiting): Promise<void> => {
    setBusy(w.id);
    const r = await call('POST', '/show/scheduled/{id}/cancel', { path: { id: w.id } });
    setBusy(null);
    changed();
    // A 404 is an operation that ran meanwhile: the list shows it among the recent ones.
    if (!r.ok) notify(problem(r));
  };
  return (
    <>
      <h3>Scheduled</h3>
      {props.waiting.length === 0 && <p class="hint">Nothing waits.</p>}
      <ul class="showlist" data-testid="show-waiting">
        {props.waiting.map((w) => (
          <li key={w.id} data-id={w.id}>
            <span class="grow path">{w.op}</span>
            <span class="meta">at {clock(w.at)}</span>
            <button type="button" disabled={busy === w.id} aria-label={`Cancel ${w.op} at ${clock(w.at)}`} onClick={() => void cancel(w)}>
              Cancel
            </button>
          </li>
        ))}
      </ul>
      {props.recent.length > 0 && (
        <details>
          <summary>Ran lately ({props.recent.length})</summary>
          <ul class="showlist" data-testid="show-recent">
            {[...props.recent].reverse().map((r) => (
              <li key={r.id}>
                <span class="grow path">{r.op}</span>
                <span class="meta">at {clock(r.at)}</span>
                <span class={TONE[r.state]}>{recentMeta(r)}</span>
              </li>
            ))}
          </ul>
        </details>
      )}
    </>
  );
}
