// Program output: the live MJPEG picture with its frame rate, the preview (cued) bus's picture, what is on air in
// words (on-air.ts), blackout and dimmer.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { call, problem } from '../api';
import { changed } from '../live';
import { readPreview } from '../mjpeg';
import { notify, useLive } from '../store';
import { latest } from '../throttle';
import { onAir } from '../on-air';
import { want } from '../wanted';
import { readLayers } from './layers-api';
import { CuedPicture } from './cued-thumb';

const PREVIEW_SIZE = 480;
const PREVIEW_FPS = 15;

function Preview() {
  const img = useRef<HTMLImageElement>(null);
  const [fps, setFps] = useState(0);
  const [error, setError] = useState('');
  const [visible, setVisible] = useState(document.visibilityState === 'visible');
  useEffect(() => {
    const onVis = (): void => setVisible(document.visibilityState === 'visible');
    document.addEventListener('visibilitychange', onVis);
    return () => document.removeEventListener('visibilitychange', onVis);
  }, []);
  useEffect(() => {
    if (!visible) return;
    let frames = 0;
    let url = '';
    let retry: ReturnType<typeof setTimeout> | undefined;
    let reader = open();
    const tick = setInterval(() => {
      setFps(frames);
      frames = 0;
    }, 1000);
    function open() {
      return readPreview(
        PREVIEW_SIZE,
        PREVIEW_FPS,
        (jpeg) => {
          frames++;
          const next = URL.createObjectURL(jpeg);
          const el = img.current;
          if (el) {
            const old = url;
            el.src = next;
            if (old) URL.revokeObjectURL(old);
            url = next;
          }
          setError('');
        },
        (status, message) => {
          setError(status === 0 ? message : `${status}: ${message}`);
          retry = setTimeout(() => (reader = open()), 2000);
        },
      );
    }
    return () => {
      reader.stop();
      clearInterval(tick);
      clearTimeout(retry);
      if (url) URL.revokeObjectURL(url);
    };
  }, [visible]);
  const status = useLive((s) => s.status);
  const dropped = status?.render?.droppedFrames;
  return (
    <figure class="preview">
      <img ref={img} alt="Program output" width={480} height={270} data-testid="program-img" />
      <figcaption>
        <span data-testid="preview-fps">{fps} fps shown</span>
        {dropped !== undefined && <span> · {dropped} dropped by the renderer</span>}
        {error !== '' && <span class="error"> · {error}</span>}
      </figcaption>
    </figure>
  );
}

export function ProgramPanel() {
  const global = useLive((s) => s.global);
  const source = useLive((s) => s.source);
  const mix = useLive((s) => s.mix);
  const layers = useLive((s) => s.layers);
  const link = useLive((s) => s.link);
  // With several layers what is on air is the composition, which the `layers` topic carries.
  useEffect(() => {
    want('layers', true);
    return () => want('layers', false);
  }, []);
  const up = link === 'live' || link === 'fallback';
  useEffect(() => {
    if (up) void readLayers();
  }, [up]);
  const [dimmer, setDimmer] = useState<number | null>(null);
  const sendDimmer = useMemo(
    () =>
      latest(async (value: number) => {
        const r = await call('POST', '/global/dimmer', { body: { value } });
        if (!r.ok) notify(problem(r));
        changed();
      }),
    [],
  );
  const shown = dimmer ?? global.dimmer;
  return (
    <section class="panel" aria-labelledby="program-h">
      <h2 id="program-h">Program</h2>
      <div class="monitors">
        <Preview />
        <CuedPicture />
      </div>
      <p class="buses">
        <span>
          Program: <strong data-testid="program-name">{onAir({ layers, mix, source })}</strong>
        </span>
        <span>
          Preview: <strong data-testid="preview-name">{mix?.preview?.name ?? 'nothing cued'}</strong>
        </span>
      </p>
      <div class="row">
        <button
          type="button"
          class={global.blackout ? 'danger on' : 'danger'}
          aria-pressed={global.blackout}
          data-testid="blackout"
          data-osc="/vjd/global/blackout"
          data-osc-mode="toggle"
          onClick={async () => {
            const r = await call('POST', '/global/blackout', { body: { enabled: !global.blackout } });
            if (!r.ok) notify(problem(r));
            changed();
          }}
        >
          Blackout
        </button>
        <label class="grow slider">
          <span>Dimmer</span>
          <input
            type="range"
            min={0}
            max={1}
            step={0.01}
            value={shown}
            data-testid="dimmer"
            data-osc="/vjd/global/dimmer"
            onInput={(e) => {
              const v = Number(e.currentTarget.value);
              setDimmer(v);
              sendDimmer(v);
            }}
            onChange={() => setTimeout(() => setDimmer(null), 500)}
          />
          <output>{Math.round(shown * 100)}%</output>
        </label>
      </div>
    </section>
  );
}
