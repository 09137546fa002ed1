// Pixel mapping (docs/pixelmap.md), folded away until opened: the fixtures drawn over the program, the test modes,
// the sender's rate, the fixture list with edit and remove, and the form. Nothing is read or streamed while closed;
// the sender's figures come with /status, which the page has anyway.
import { useEffect, useState } from 'preact/hooks';
import { notify, useLive } from '../store';
import {
  type Fixture,
  type FixtureBody,
  pixelCount,
  placeWords,
  type PixelmapView,
  pmOp,
  PROTOCOL_NAME,
  readPixelmap,
  TEST_MODES,
  type TestMode,
} from './pixelmap-api';
import { FixtureForm } from './pixelmap-form';
import { Stage } from './pixelmap-stage';

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

function Row(props: { f: Fixture; view: PixelmapView; selected: boolean; select: () => void; edit: () => void; remove: () => void }) {
  const { f, view, selected } = props;
  return (
    <li data-id={f.id} class={selected ? 'sel' : ''} aria-current={selected || undefined}>
      <button type="button" class="link grow" aria-label={`Select fixture ${f.id}`} onClick={props.select}>
        <strong>{f.id}</strong>
      </button>
      <span class="meta">
        {f.geometry.kind} · {PROTOCOL_NAME[f.protocol]} {f.destination} · {placeWords(f, view.patch)} ·{' '}
        {plural(pixelCount(f.geometry), 'pixel')}
      </span>
      <span class="row cue-btns">
        <button type="button" aria-label={`Edit fixture ${f.id}`} onClick={props.edit}>
          Edit
        </button>
        <button type="button" class="danger" aria-label={`Remove fixture ${f.id}`} onClick={props.remove}>
          ×
        </button>
      </span>
    </li>
  );
}

export function PixelmapPanel() {
  const live = useLive((s) => s.status?.pixelmap);
  const [open, setOpen] = useState(false);
  const [view, setView] = useState<PixelmapView | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const read = async (): Promise<void> => {
    const v = await readPixelmap();
    if (v) setView(v);
  };
  // Read when opened, and when /status's summary of the patch moves (a change made elsewhere, or here).
  const summary = live ? `${live.fixtures} ${live.pixels} ${live.universes} ${live.test}` : '';
  useEffect(() => {
    if (open) void read();
  }, [open, summary]);

  const fixtures = view?.fixtures ?? [];
  // The read after a change is newer than the once-a-second status.
  const test = view?.test ?? live?.test ?? 'off';
  const setTest = async (mode: TestMode): Promise<void> => {
    const p = await pmOp('/pixelmap/test', { mode });
    if (p) notify(`${p.code}: ${p.message}`);
    void read();
  };
  const save = async (body: FixtureBody, id: string | null) => {
    const p = id === null ? await pmOp('/pixelmap/fixtures/add', body) : await pmOp('/pixelmap/fixtures/edit', { id, ...body });
    if (!p) void read();
    return p;
  };
  const remove = async (f: Fixture): Promise<void> => {
    if (!window.confirm(`Remove fixture ${f.id}?`)) return;
    const p = await pmOp('/pixelmap/fixtures/remove', { id: f.id });
    if (p) notify(`${p.code}: ${p.message}`);
    if (editing === f.id) setEditing(null);
    void read();
  };
  const rate = live ? `${live.packetsPerSecond} packets/s` : '';

  return (
    <section class="panel pm" aria-labelledby="pm-h" data-testid="pixelmap-panel">
      <details open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
        <summary data-testid="pm-toggle">
          <h2 id="pm-h" class="grow">
            Pixel mapping
          </h2>
          <small>{live && (live.enabled ? `${plural(live.fixtures, 'fixture')} · ${rate}` : 'off')}</small>
        </summary>
        {view && !view.enabled && (
          <p class="warn" data-testid="pm-disabled">
            Pixel mapping is off in the config (pixelmap.enabled): the patch can be edited, but nothing is sent.
          </p>
        )}
        {open && <Stage fixtures={fixtures} selected={selected} />}
        <fieldset class="row wrap beats" aria-labelledby="pm-test-h">
          <span id="pm-test-h">Test</span>
          {TEST_MODES.map(({ mode, label }) => (
            <button
              key={mode}
              type="button"
              aria-pressed={test === mode}
              data-testid={`pm-test-${mode}`}
              onClick={() => void setTest(mode)}
            >
              {label}
            </button>
          ))}
        </fieldset>
        <p data-testid="pm-sender" role="status">
          {live ? `${rate} · ${plural(live.universes, 'universe')} · ${plural(live.pixels, 'pixel')}` : 'Sender …'}
          {live?.lastError && <span class="error"> · {live.lastError}</span>}
        </p>
        {view && fixtures.length === 0 && <p class="hint">No fixtures yet.</p>}
        <ul class="showlist pm-list" data-testid="pm-list">
          {view &&
            fixtures.map((f) => (
              <Row
                key={f.id}
                f={f}
                view={view}
                selected={f.id === selected}
                select={() => setSelected(f.id === selected ? null : f.id)}
                edit={() => {
                  setSelected(f.id);
                  setEditing(f.id);
                }}
                remove={() => void remove(f)}
              />
            ))}
        </ul>
        {view && view.destinations.length === 0 && (
          <p class="hint">config pixelmap.destinations lists no destination: no fixture can be added.</p>
        )}
        {view && (
          <FixtureForm
            destinations={view.destinations}
            editing={fixtures.find((f) => f.id === editing) ?? null}
            save={save}
            done={() => setEditing(null)}
          />
        )}
      </details>
    </section>
  );
}
