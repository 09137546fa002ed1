// The output as a black stage of its own shape, with the program preview on it where the map puts it (sliced, then
// corner-pinned through a CSS matrix3d), four corner handles to drag (mouse, touch, pen) or move with the arrow keys,
// and a mesh set over HTTP drawn as read-only points.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { OutputMap } from './output-map-api';
import { clampPoint, matrix3d, type Point, type Quad, type Slice, sliceClip } from './output-map-math';
import { usePreview } from './pixelmap-stage';

const NAMES = ['Top-left', 'Top-right', 'Bottom-right', 'Bottom-left'];
/** How far past the stage's edge (px) a handle is drawn at most: a corner further out sits at the frame's margin. */
const REACH = 18;
const pct = (v: number): string => `${(v * 100).toFixed(1)} %`;

interface Props {
  width: number;
  height: number;
  /** Where the handles are (null: no corner-pin, nor handles: a mesh is shown instead). */
  handles: Quad | null;
  /** The corners the picture is drawn on: the handles' while they form a quad the server takes, else the last accepted. */
  picture: Quad;
  slice: Slice;
  mesh: OutputMap['mesh'] | undefined;
  /** A corner moved; `done` at the end of a drag and for each key press. */
  move: (i: number, p: Point, done: boolean) => void;
}

export function Stage({ width, height, handles, picture, slice, mesh, move }: Props) {
  const img = useRef<HTMLImageElement>(null);
  const stage = useRef<HTMLDivElement>(null);
  const error = usePreview(img);
  // The stage's size in px: matrix3d() works in pixels, and the page's width changes.
  const [[sw, sh], setSize] = useState<[number, number]>([0, 0]);
  useEffect(() => {
    const el = stage.current!;
    const ro = new ResizeObserver(() => setSize([el.clientWidth, el.clientHeight]));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  const drag = useRef<{ i: number; id: number; x: number; y: number; from: Point; at: Point | null } | null>(null);
  const transform = sw > 0 ? matrix3d(picture, slice, sw, sh) : null;

  const onKey = (i: number, e: KeyboardEvent): void => {
    const d: Record<string, Point> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const dir = d[e.key];
    if (!dir || !handles) return;
    e.preventDefault();
    const step = e.shiftKey ? 0.001 : 0.01;
    const [x, y] = handles[i]!;
    move(i, [clampPoint(x + dir[0] * step), clampPoint(y + dir[1] * step)], true);
  };
  const onPointer = (i: number, e: PointerEvent): void => {
    const el = e.currentTarget as HTMLElement;
    const g = drag.current;
    if (e.type === 'pointerdown') {
      el.setPointerCapture(e.pointerId);
      el.focus();
      drag.current = { i, id: e.pointerId, x: e.clientX, y: e.clientY, from: handles![i]!, at: null };
      return;
    }
    if (!g || g.id !== e.pointerId || sw === 0) return;
    if (e.type === 'pointermove') {
      // From where the grab began, so a handle drawn at the margin (its corner further out) does not jump.
      g.at = [clampPoint(g.from[0] + (e.clientX - g.x) / sw), clampPoint(g.from[1] + (e.clientY - g.y) / sh)];
      move(g.i, g.at, false);
      return;
    }
    drag.current = null;
    if (g.at) move(g.i, g.at, true);
  };

  return (
    <figure class="om-fig">
      <div class="om-frame">
        <div class="om-stage" ref={stage} style={{ aspectRatio: `${width} / ${height}` }} data-testid="om-stage">
          <img
            ref={img}
            class="om-pic"
            alt="Program preview as this output will show it"
            data-testid="om-picture"
            style={{ transform: transform ?? 'none', clipPath: sliceClip(slice), visibility: transform ? 'visible' : 'hidden' }}
          />
          {mesh && (
            <svg class="om-mesh" viewBox={`0 0 ${width} ${height}`} role="img" aria-label="Mesh points (read-only)" data-testid="om-mesh">
              {mesh.points.map(([x, y], k) => (
                <circle key={k} cx={(x ?? 0) * width} cy={(y ?? 0) * height} r={Math.max(width, height) / 120} />
              ))}
            </svg>
          )}
        </div>
        {handles && sw > 0 && (
          <div class="om-handles">
            {handles.map(([x, y], i) => (
              <button
                key={NAMES[i]}
                type="button"
                class="om-handle"
                aria-label={`${i + 1} ${NAMES[i]} corner at ${pct(x)}, ${pct(y)} (arrow keys move it; Shift for finer steps)`}
                data-testid={`om-corner-${i}`}
                style={{
                  left: `${Math.min(sw + REACH, Math.max(-REACH, x * sw))}px`,
                  top: `${Math.min(sh + REACH, Math.max(-REACH, y * sh))}px`,
                }}
                onPointerDown={(e) => onPointer(i, e)}
                onPointerMove={(e) => onPointer(i, e)}
                onPointerUp={(e) => onPointer(i, e)}
                onPointerCancel={(e) => onPointer(i, e)}
                onKeyDown={(e) => onKey(i, e)}
              >
                {i + 1}
              </button>
            ))}
          </div>
        )}
      </div>
      {error !== '' && <figcaption class="error">{error}</figcaption>}
    </figure>
  );
}
