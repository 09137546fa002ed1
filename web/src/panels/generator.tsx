// Generator parameters: the program source's inputs when it is a generator (GET /sources/current/params), with the
// same controls as effect inputs, set through POST /sources/params. Any other program source answers 409
// NOT_A_GENERATOR, shown as text. The `generator` topic pushes the inputs whoever changed them; a null event (not a
// generator, or the renderer busy) and a page without the socket read the route again on each source change.
import { useCallback, useEffect, useState } from 'preact/hooks';
import { call, problem } from '../api';
import { notify, useLive } from '../store';
import { Control, type Input } from './controls';

type View = { kind: 'loading' } | { kind: 'none' } | { kind: 'error'; text: string } | { kind: 'inputs'; id: string; inputs: Input[] };

const notGenerator = (r: { status: number; body: any }): boolean => r.status === 409 && r.body?.code === 'NOT_A_GENERATOR';

export function GeneratorPanel() {
  const source = useLive((s) => s.source);
  const programId = useLive((s) => s.mix?.program?.id);
  const pushed = useLive((s) => s.generator);
  const pushes = useLive((s) => s.generatorVersion);
  const link = useLive((s) => s.link);
  const [view, setView] = useState<View>({ kind: 'loading' });
  const load = useCallback(async () => {
    const r = await call('GET', '/sources/current/params');
    if (r.ok) setView({ kind: 'inputs', id: r.body.id, inputs: r.body.inputs ?? [] });
    else if (notGenerator(r)) setView({ kind: 'none' });
    else setView({ kind: 'error', text: problem(r) });
  }, []);
  useEffect(() => {
    if (link === 'live' && pushes > 0 && pushed !== null) setView({ kind: 'inputs', id: pushed.id, inputs: pushed.inputs ?? [] });
    else void load();
  }, [load, source, programId, pushed, pushes, link]);
  const send = useCallback(async (name: string, value: unknown) => {
    const r = await call('POST', '/sources/params', { values: { [name]: value } });
    if (r.ok) setView({ kind: 'inputs', id: r.body.id, inputs: r.body.inputs ?? [] });
    else if (notGenerator(r)) setView({ kind: 'none' });
    else notify(problem(r));
  }, []);
  return (
    <section class="panel" aria-labelledby="generator-h" data-testid="generator">
      <h2 id="generator-h">Generator</h2>
      {view.kind === 'loading' && <p class="hint">Loading…</p>}
      {view.kind === 'none' && (
        <p class="hint" data-testid="generator-none">
          The program source is not a generator: it has no parameters.
        </p>
      )}
      {view.kind === 'error' && <p class="error">{view.text}</p>}
      {view.kind === 'inputs' && (
        <div class="params" data-source={view.id}>
          <p class="hint">
            {source?.name ?? view.id}
          </p>
          {view.inputs.length === 0 && <p class="hint">No inputs.</p>}
          {view.inputs.map((i) => (
            <Control key={`${view.id}-${i.name}`} input={i} idPrefix="gen" send={send} />
          ))}
        </div>
      )}
    </section>
  );
}
