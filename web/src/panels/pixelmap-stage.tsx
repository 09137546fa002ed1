// The fixtures drawn over the program: the same MJPEG preview the program panel reads (same size and rate, so the
// server encodes once for both), with an SVG in the picture's own pixels on top, since fixture coordinates are
// fractions of the program, whatever its aspect.
import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { readPreview } from '../mjpeg';
import type { Fixture } from './pixelmap-api';

// As in program.tsx: clients at one size and rate share one encode per frame.
const PREVIEW_SIZE = 480;
const PREVIEW_FPS = 15;

/** Streams the preview into `img` while mounted and the tab is visible; the last error, or ''. */
export function usePreview(img: { current: HTMLImageElement | null }): string {
  const [error, setError] = useState('');
  const [visible, setVisible] = useState(document.visibilityState === 'visible');
  useEffect(() => {
    const onVis = (): void => setVisible(document.visibilityState === 'visible');
    document.addEventListener('visibilitychange', onVis);
    return () => document.removeEventListener('visibilitychange', onVis);
  }, []);
  useEffect(() => {
    if (!visible) return;
    let url = '';
    let retry: ReturnType<typeof setTimeout> | undefined;
    const open = () =>
      readPreview(
        PREVIEW_SIZE,
        PREVIEW_FPS,
        (jpeg) => {
          const next = URL.createObjectURL(jpeg);
          if (img.current) img.current.src = next;
          if (url) URL.revokeObjectURL(url);
          url = next;
          setError('');
        },
        (status, message) => {
          setError(status === 0 ? message : `${status}: ${message}`);
          retry = setTimeout(() => (reader = open()), 2000);
        },
      );
    let reader = open();
    return () => {
      reader.stop();
      clearTimeout(retry);
      if (url) URL.revokeObjectURL(url);
    };
  }, [visible]);
  return error;
}

function Shape({ f, w, h, selected }: { f: Fixture; w: number; h: number; selected: boolean }) {
  const g = f.geometry;
  const r = h / 60;
  let shape: JSX.Element;
  let at: [number, number];
  if (g.kind === 'strip') {
    shape = <line x1={g.x1 * w} y1={g.y1 * h} x2={g.x2 * w} y2={g.y2 * h} />;
    at = [g.x1 * w, g.y1 * h];
  } else if (g.kind === 'matrix') {
    shape = <rect x={g.x * w} y={g.y * h} width={g.w * w} height={g.h * h} />;
    at = [g.x * w, g.y * h];
  } else {
    shape = <circle cx={g.x * w} cy={g.y * h} r={r} />;
    at = [g.x * w + r, g.y * h];
  }
  return (
    <g class={selected ? 'pm-fx sel' : 'pm-fx'} data-id={f.id} data-kind={g.kind}>
      {shape}
      <text x={at[0] + r} y={at[1] - r} font-size={h / 16}>
        {f.id}
      </text>
    </g>
  );
}

export function Stage({ fixtures, selected }: { fixtures: readonly Fixture[]; selected: string | null }) {
  const img = useRef<HTMLImageElement>(null);
  const error = usePreview(img);
  // The picture's size once a frame arrived; 16:9 until then.
  const [size, setSize] = useState<[number, number]>([480, 270]);
  const [w, h] = size;
  return (
    <figure class="preview">
      <div class="pm-stage" style={{ aspectRatio: `${w} / ${h}` }}>
        <img
          ref={img}
          alt="Program output under the fixtures"
          data-testid="pm-program"
          onLoad={(e) => {
            const { naturalWidth: nw, naturalHeight: nh } = e.currentTarget;
            if (nw > 0 && nh > 0 && (nw !== w || nh !== h)) setSize([nw, nh]);
          }}
        />
        <svg
          class="pm-overlay"
          viewBox={`0 0 ${w} ${h}`}
          role="img"
          aria-label={`${fixtures.length} fixtures on the program`}
          data-testid="pm-overlay"
        >
          {/* The selected one last, so it is drawn on top. */}
          {[...fixtures]
            .sort((a, b) => Number(a.id === selected) - Number(b.id === selected))
            .map((f) => (
              <Shape key={f.id} f={f} w={w} h={h} selected={f.id === selected} />
            ))}
        </svg>
      </div>
      {error !== '' && <figcaption class="error">{error}</figcaption>}
    </figure>
  );
}
