// Generator parameters: the program source's inputs when it is a generator (GET /sources/current/params), with the
// same controls as effect inputs, set through POST /sources/params. The program's type (the mix and source state)
// says whether it is a generator, so the route is only asked for generators: any other program has no parameters and
// would answer 409 NOT_A_GENERATOR. The `generator` topic pushes the inputs whoever changed them; without it (or
// before its event for a newly taken generator) the route is read on each source change.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { call, problem, type Problem } from '../api';
import { live as liveState, notify, useLive } from '../store';
import { Control, type Input } from './controls';
import { useWantLive } from './mod-live';
import { modulateSource, type Modulator } from '../mod-api';

type View = { kind: 'loading' } | { kind: 'none' } | { kind: 'error'; text: string } | { kind: 'inputs'; id: string; inputs: Input[] };

const notGenerator = (r: { status: number; body: Problem | null }): boolean => r.status === 409 && r.body?.code === 'NOT_A_GENERATOR';

export function GeneratorPanel() {
  const source = useLive((s) => s.source);
  const programId = useLive((s) => s.mix?.program?.id ?? s.source?.id);
  // `generator` for generators and source presets (generators with saved inputs); undefined before any state is read.
  const programType = useLive((s) => s.mix?.program?.type ?? s.source?.type);
  const pushed = useLive((s) => s.generator);
  const pushes = useLive((s) => s.generatorVersion);
  const link = useLive((s) => s.link);
  const [view, setView] = useState<View>({ kind: 'loading' });
  // Each program change starts a new turn: an answer for an earlier program is dropped.
  const turn = useRef(0);
  const load = useCallback(async () => {
    const mine = turn.current;
    const r = await call('GET', '/sources/current/params');
    if (mine !== turn.current) return;
    if (r.ok) setView({ kind: 'inputs', id: r.body.id, inputs: r.body.inputs ?? [] });
    else if (notGenerator(r)) setView({ kind: 'none' });
    else setView({ kind: 'error', text: problem(r) });
  }, []);
  useEffect(() => {
    turn.current++;
    if (programType === undefined) setView({ kind: 'loading' });
    else if (programType !== 'generator') setView({ kind: 'none' });
    // A pushed state of the previous generator is stale until its event for this one arrives.
    else if (link === 'live' && pushes > 0 && pushed !== null && pushed.id === programId)
      setView({ kind: 'inputs', id: pushed.id, inputs: pushed.inputs ?? [] });
    else void load();
  }, [load, source, programId, programType, pushed, pushes, link]);
  const live = useLive((s) => s.live);
  useWantLive(view.kind === 'inputs' && view.inputs.some((i) => i.modulator));
  const modulate = useCallback(
    async (name: string, modulator: Modulator | null, component?: string): Promise<boolean> => {
      const r = await modulateSource(name, modulator, component);
      if (!r.ok) {
        notify(problem(r));
        return false;
      }
      void load();
      return true;
    },
    [load],
  );
  const send = useCallback(async (name: string, value: unknown) => {
    // A push that arrives while the request is out may carry a later change (another client's): the answer, which
    // can come after it on a loaded box, would then put an older picture back, and no further push would fix it.
    const before = liveState().generatorVersion;
    const r = await call('POST', '/sources/params', { body: { values: { [name]: value } } });
    if (r.ok) {
      if (liveState().generatorVersion === before) setView({ kind: 'inputs', id: r.body.id, inputs: r.body.inputs ?? [] });
    } else if (notGenerator(r)) setView({ kind: 'none' });
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
          <p class="hint">{source?.name ?? view.id}</p>
          {view.inputs.length === 0 && <p class="hint">No inputs.</p>}
          {view.inputs.map((i) => (
            <Control
              key={`${view.id}-${i.name}`}
              input={i}
              idPrefix="gen"
              send={send}
              mod={{ live: live?.source.find((e) => e.input === i.name && e.component === undefined)?.live ?? i.live, set: modulate }}
            />
          ))}
        </div>
      )}
    </section>
  );
}
