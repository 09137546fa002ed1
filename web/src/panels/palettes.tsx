// Palettes as swatch buttons (current marked) with Next; actions as a button grid by category.
import { useMemo } from 'preact/hooks';
import { call, problem } from '../api';
import { changed, refreshLists } from '../live';
import { notify, useLive, type LiveState } from '../store';

export function PalettesPanel() {
  const palettes = useLive((s) => s.palettes);
  const current = useLive((s) => s.palette);
  return (
    <section class="panel" aria-labelledby="palettes-h">
      <div class="row">
        <h2 id="palettes-h" class="grow">
          Palettes
        </h2>
        <button
          type="button"
          data-testid="palette-next"
          onClick={async () => {
            const r = await call('POST', '/palettes/next');
            if (!r.ok) notify(problem(r));
            changed();
          }}
        >
          Next palette
        </button>
      </div>
      <p>
        Current: <strong data-testid="palette-current">{current?.name ?? '—'}</strong>
      </p>
      <div class="swatches">
        {palettes.map((p) => (
          <button
            type="button"
            key={p.id}
            class="swatch"
            aria-pressed={current?.id === p.id}
            data-id={p.id}
            onClick={async () => {
              const r = await call('POST', '/palettes/select', { body: { id: p.id } });
              if (!r.ok) notify(problem(r));
              changed();
            }}
          >
            <span class="colors" aria-hidden="true">
              {p.colors.map((c) => (
                <i style={{ background: c }} />
              ))}
            </span>
            <span class="pname">{p.name}</span>
          </button>
        ))}
      </div>
    </section>
  );
}

export function ActionsPanel() {
  const actions = useLive((s) => s.actions);
  const groups = useMemo(() => {
    const m = new Map<string, LiveState['actions']>();
    for (const a of actions) m.set(a.category, [...(m.get(a.category) ?? []), a]);
    return [...m];
  }, [actions]);
  return (
    <section class="panel" aria-labelledby="actions-h">
      <h2 id="actions-h">Actions</h2>
      {groups.map(([category, items], i) => (
        <details key={category} open={i === 0}>
          <summary>
            {category} ({items.length})
          </summary>
          <div class="grid-buttons">
            {items.map((a) => (
              <button
                type="button"
                key={a.id}
                data-id={a.id}
                onClick={async () => {
                  const r = await call('POST', '/actions/{id}', { path: { id: a.id } });
                  if (!r.ok) notify(problem(r));
                  changed();
                }}
              >
                {a.name}
              </button>
            ))}
          </div>
        </details>
      ))}
      {groups.length === 0 && (
        <button type="button" onClick={() => void refreshLists()}>
          Load actions
        </button>
      )}
    </section>
  );
}
