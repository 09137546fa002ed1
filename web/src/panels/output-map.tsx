// One output's map editor (POST /outputs/{id}/map), opened from its row in the Outputs panel and mounted only while
// open, so nothing is read or streamed otherwise. A drag sends the map at most every 100 ms and once more on release,
// so the output follows live; the server's refusal (folded corners, a slice past the edge) shows here and the editor
// goes back to the last map it accepted.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { paced } from '../throttle';
import { cornersOf, type Output, type OutputMap, readMap, sendMap, sliceOf, withChange } from './output-map-api';
import { MapFields } from './output-map-fields';
import { convex, type Point, type Quad, UNIT } from './output-map-math';
import { Stage } from './output-map-stage';

const SEND_GAP_MS = 100;

export function OutputMapEditor({ output }: { output: Output }) {
  const { id } = output;
  // The map the server has; the events topic moves only when an output restarts, so it is read once on opening.
  const [accepted, setAccepted] = useState<OutputMap | null>(output.map);
  // The handles while they differ from the accepted corners (a drag, or sends not yet answered).
  const [draft, setDraft] = useState<Quad | null>(null);
  // Counted, so the same refusal twice still puts the fields left since back to the accepted map.
  const [refusal, setRefusal] = useState<{ text: string; n: number } | null>(null);
  const refusals = useRef(0);
  const dragging = useRef(false);
  const sent = useRef(0);

  useEffect(() => {
    void readMap(id).then((m) => {
      if (m !== undefined && sent.current === 0) setAccepted(m);
    });
  }, [id]);

  const send = useMemo(
    () =>
      paced(async ({ map, seq }: { map: OutputMap | null; seq: number }) => {
        const r = await sendMap(id, map);
        if (r.ok) setAccepted(r.map);
        setRefusal(r.ok ? null : { text: r.message, n: ++refusals.current });
        // The answer to the newest change ends the draft: the handles show what the server kept.
        if (seq === sent.current && !dragging.current) setDraft(null);
      }, SEND_GAP_MS),
    [id],
  );
  const submit = (map: OutputMap | null): void => send({ map, seq: ++sent.current });

  const mesh = accepted?.mesh;
  const handles = mesh ? null : (draft ?? cornersOf(accepted) ?? UNIT);
  const picture = draft && convex(draft) ? draft : (cornersOf(accepted) ?? UNIT);
  const move = (i: number, p: Point, done: boolean): void => {
    if (!handles) return;
    const next = handles.map((c, k) => (k === i ? p : c)) as Quad;
    dragging.current = !done;
    setDraft(next);
    submit(withChange(accepted, { corners: next }));
  };

  return (
    <section class="om" data-testid={`om-${id}`} aria-label={`Map of ${output.name}`}>
      <Stage
        width={output.width}
        height={output.height}
        handles={handles}
        picture={picture}
        slice={sliceOf(accepted)}
        mesh={mesh}
        move={move}
      />
      <p class="hint">
        {output.width}×{output.height}.{' '}
        {mesh
          ? `A ${mesh.cols}×${mesh.rows} mesh set over the API, shown read-only: the page edits corners, not meshes. Reset clears it.`
          : 'Drag the corners (or focus one and use the arrow keys, Shift for finer steps) to pin the picture.'}
      </p>
      {refusal && (
        <p class="error om-error" role="alert" data-testid="om-error">
          {refusal.text}
        </p>
      )}
      <MapFields map={accepted} refused={refusal?.n ?? 0} change={(c) => submit(withChange(accepted, c))} />
      <div class="row wrap">
        <button type="button" class="danger" data-testid="om-reset" onClick={() => submit(null)}>
          Reset (no map)
        </button>
        <span class="hint" data-testid="om-state">
          {accepted ? 'Mapped' : 'The program as it is'}
        </span>
      </div>
    </section>
  );
}
