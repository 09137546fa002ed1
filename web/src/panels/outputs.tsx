// Outputs: each with state, counters and an enable toggle; add a stream or a recording; the recordings list, whose
// downloads go through fetch() with the key header (a plain link could not carry it) and are saved from a blob.
import { useState } from 'preact/hooks';
import { API, authHeaders, call, problem } from '../api';
import type { Op, RequestBody } from '../api-shapes';
import { changed, refreshRecordings } from '../live';
import { notify, useLive } from '../store';
import { OutputMapEditor } from './output-map';

async function download(file: string): Promise<void> {
  const r = await fetch(`${API}/recordings/${encodeURIComponent(file)}`, { headers: authHeaders() });
  if (!r.ok) return notify(`download failed: HTTP ${r.status}`);
  const url = URL.createObjectURL(await r.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = file;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60000);
}

type AddBody = RequestBody<Op<'POST', '/outputs/add'>>;

function AddOutput() {
  const [kind, setKind] = useState<'stream' | 'record'>('record');
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  return (
    <form
      class="addout"
      onSubmit={async (e) => {
        e.preventDefault();
        const body: AddBody = { kind };
        if (name.trim() !== '') body.name = name.trim();
        if (kind === 'stream') body.url = url.trim();
        const r = await call('POST', '/outputs/add', { body });
        if (!r.ok) notify(problem(r));
        else {
          setName('');
          setUrl('');
        }
        changed();
      }}
    >
      <label class="field">
        <span>Kind</span>
        <select value={kind} onChange={(e) => setKind(e.currentTarget.value as 'stream' | 'record')} data-testid="output-kind">
          <option value="record">Recording</option>
          <option value="stream">Stream</option>
        </select>
      </label>
      <label class="field">
        <span>Name</span>
        <input value={name} onInput={(e) => setName(e.currentTarget.value)} maxLength={128} data-testid="output-name" />
      </label>
      {kind === 'stream' && (
        <label class="field">
          <span>URL</span>
          <input value={url} onInput={(e) => setUrl(e.currentTarget.value)} placeholder="srt://host:port" required inputMode="url" />
        </label>
      )}
      <button type="submit" class="primary">
        Add output
      </button>
    </form>
  );
}

export function OutputsPanel() {
  const outputs = useLive((s) => s.outputs);
  const recordings = useLive((s) => s.recordings);
  const [mapOpen, setMapOpen] = useState<string | null>(null);
  return (
    <section class="panel" aria-labelledby="outputs-h">
      <h2 id="outputs-h">Outputs</h2>
      {outputs.items.length === 0 && <p class="hint">No outputs.</p>}
      <ul class="outputs">
        {outputs.items.map((o) => (
          <li key={o.id} data-id={o.id} class={`out ${o.state}`}>
            <label class="toggle">
              <input
                type="checkbox"
                checked={o.enabled}
                onChange={async (e) => {
                  const r = await call('POST', '/outputs/enabled', { body: { id: o.id, enabled: e.currentTarget.checked } });
                  if (!r.ok) notify(problem(r));
                  changed();
                }}
              />
              <span>
                {o.name} <small>({o.kind})</small>
              </span>
            </label>
            <span class="state" data-testid={`out-state-${o.id}`}>
              {o.state}
            </span>
            <span class="counters">
              {o.framesSent} sent · {o.framesDropped} dropped · {o.restarts} restarts
            </span>
            {o.lastError && <span class="error">{o.lastError}</span>}
            <button
              type="button"
              aria-expanded={mapOpen === o.id}
              aria-label={`Map output ${o.name}`}
              data-testid={`out-map-${o.id}`}
              onClick={() => setMapOpen(mapOpen === o.id ? null : o.id)}
            >
              Map
            </button>
            <button
              type="button"
              class="danger"
              aria-label={`Remove output ${o.name}`}
              onClick={async () => {
                const r = await call('POST', '/outputs/remove', { body: { id: o.id } });
                if (!r.ok) notify(problem(r));
                changed();
              }}
            >
              ✕
            </button>
            {mapOpen === o.id && <OutputMapEditor output={o} />}
          </li>
        ))}
      </ul>
      <AddOutput />
      <div class="row">
        <h3 class="grow">Recordings</h3>
        <button type="button" onClick={() => void refreshRecordings()}>
          Refresh
        </button>
      </div>
      {recordings.length === 0 && <p class="hint">No recordings.</p>}
      <ul class="recordings">
        {recordings.map((r) => (
          <li key={r.file}>
            <button type="button" class="link" disabled={!r.complete} onClick={() => void download(r.file)} data-file={r.file}>
              Download {r.file}
            </button>
            <small>
              {(r.bytes / 1e6).toFixed(1)} MB
              {r.durationSeconds != null ? ` · ${r.durationSeconds.toFixed(1)} s` : r.complete ? '' : ' · recording'}
            </small>
          </li>
        ))}
      </ul>
    </section>
  );
}
