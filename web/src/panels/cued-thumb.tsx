// The preview bus's picture: the cued source's thumbnail by its kind (a generator's or preset's still, a file's
// poster, a live input's latest frame asked again once a second while the page is visible).
import { useEffect, useState } from 'preact/hooks';
import { API } from '../api';
import { thumb, thumbFailed } from '../thumbs';
import { useLive } from '../store';

const REFRESH_MS = 1000;
const SIZE = 256;

function urlOf(p: { id: string; sourceKind: string }): string | null {
  const id = encodeURIComponent(p.id);
  if (p.sourceKind === 'live') return `${API}/thumbnails/live/${id}?size=${SIZE}&format=jpg`;
  if (p.sourceKind === 'file') return `/media/thumbnails/${id}?size=${SIZE}&format=jpg`;
  if (p.sourceKind === 'generator' || p.sourceKind === 'preset') return `${API}/thumbnails/source/${id}?size=${SIZE}&format=jpg`;
  return null;
}

export function CuedPicture() {
  const preview = useLive((s) => s.mix?.preview ?? null);
  const url = preview ? urlOf(preview) : null;
  const isLive = preview?.sourceKind === 'live';
  const [src, setSrc] = useState('');
  useEffect(() => {
    setSrc('');
    if (url === null) return;
    let alive = true;
    let loaded = false;
    let n = 0;
    // A live frame changes all the time: a wanted tag the held ETag never equals revalidates it on every tick. A
    // still is asked for again only while it has not come (a busy renderer answers 503 now and then).
    const ask = (tick: boolean): void => {
      if (tick && (document.visibilityState !== 'visible' || (loaded && !isLive && !thumbFailed(url)))) return;
      void thumb(url, tick ? `tick${n++}` : undefined, () => alive).then((s) => {
        if (!alive || s === '') return;
        loaded = true;
        setSrc(s);
      });
    };
    ask(false);
    const timer = setInterval(() => ask(true), REFRESH_MS);
    return () => {
      alive = false;
      clearInterval(timer);
    };
  }, [url, isLive]);
  return (
    <figure class="cued">
      {src === '' ? (
        <span class="cued-empty" data-testid="cued-img" data-loaded="no">
          {preview ? '' : 'nothing cued'}
        </span>
      ) : (
        <img src={src} alt="Preview bus" data-testid="cued-img" data-loaded="yes" />
      )}
      <figcaption>Preview</figcaption>
    </figure>
  );
}
