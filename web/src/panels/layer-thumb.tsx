// A layer's picture (GET /thumbnails/layer/{n}), asked again a few times a second only while the strip is on screen
// and the tab is visible; the ETag keeps an unchanged picture to a 304.
import { useEffect, useRef, useState } from 'preact/hooks';
import { API } from '../api';
import { thumb, thumbFailed } from '../thumbs';

const REFRESH_MS = 330;
/** Ticks skipped after an error answer (a busy renderer's readback timeout asks for a pause). */
const PAUSE_TICKS = 3;
const SIZE = 96;

/** Whether the element is on screen and its tab visible. */
function useShown(el: { current: Element | null }): boolean {
  const [onScreen, setOnScreen] = useState(false);
  const [tab, setTab] = useState(document.visibilityState === 'visible');
  useEffect(() => {
    const onVis = (): void => setTab(document.visibilityState === 'visible');
    document.addEventListener('visibilitychange', onVis);
    const io = new IntersectionObserver((entries) => setOnScreen(entries.some((e) => e.isIntersecting)));
    if (el.current) io.observe(el.current);
    return () => {
      document.removeEventListener('visibilitychange', onVis);
      io.disconnect();
    };
  }, []);
  return onScreen && tab;
}

export function LayerThumb(props: { position: number }) {
  const box = useRef<HTMLSpanElement>(null);
  const shown = useShown(box);
  const [src, setSrc] = useState('');
  const url = `${API}/thumbnails/layer/${props.position}?size=${SIZE}&format=jpg`;
  useEffect(() => {
    if (!shown) return;
    let alive = true;
    let n = 0;
    let pause = 0;
    // A wanted tag the held ETag never equals: every tick revalidates (If-None-Match), a 304 keeps the picture.
    const ask = (): void => {
      if (pause > 0) return void pause--;
      void thumb(url, `tick${n++}`, () => alive).then((s) => {
        if (thumbFailed(url)) pause = PAUSE_TICKS;
        if (alive && s !== '') setSrc(s);
      });
    };
    ask();
    const timer = setInterval(ask, REFRESH_MS);
    return () => {
      alive = false;
      clearInterval(timer);
    };
  }, [shown, url]);
  return (
    <span ref={box} class="thumb" data-testid="layer-thumb" data-loaded={src === '' ? 'no' : 'yes'}>
      {src !== '' && <img src={src} alt="" />}
    </span>
  );
}
