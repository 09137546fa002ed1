// The effect picker: the catalog as a grid of buttons, each with its picture (the effect over the test card, GET
// /catalog/effects/{id}/thumbnail, fetched once it scrolls into view) and its name; a search; arrow keys move
// between the buttons, Enter or a tap adds the effect to the chain.
import { useEffect, useRef, useState } from 'preact/hooks';
import { API } from '../api';
import type { Got } from '../api-shapes';
import { matches } from '../names';
import { useLive } from '../store';
import { thumb, thumbFailed } from '../thumbs';
import { post } from './effect-params';

type Item = Got<'/effects/available'>['items'][number];

/** A busy server answers 503 now and then: asked again after these pauses, then left blank until the next opening. */
const RETRY_MS = [1000, 2000, 4000, 8000];

const PICTURE = 'display:block;width:100%;aspect-ratio:16/9;object-fit:cover;margin-bottom:4px;background:#000;border-radius:3px';

/** The effect's picture, asked for only once its button is on screen; a changed file gets a new ETag, so each opening revalidates. */
function EffectThumb(props: { type: string; name: string; broken: boolean }) {
  const box = useRef<HTMLSpanElement>(null);
  const [seen, setSeen] = useState(false);
  const [src, setSrc] = useState('');
  const [tries, setTries] = useState(0);
  useEffect(() => {
    const el = box.current;
    if (!el || seen) return;
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        setSeen(true);
        io.disconnect();
      }
    });
    io.observe(el);
    return () => io.disconnect();
  }, [seen]);
  useEffect(() => {
    if (!seen || props.broken) return;
    let alive = true;
    let again: ReturnType<typeof setTimeout> | undefined;
    const url = `${API}/catalog/effects/${encodeURIComponent(props.type)}/thumbnail`;
    // A wanted tag no ETag equals: the cached picture is revalidated (304 while the file is unchanged).
    void thumb(url, `open${tries}`, () => alive).then((s) => {
      if (!alive) return;
      setSrc(s);
      const pause = RETRY_MS[tries];
      if (s === '' && thumbFailed(url) && pause !== undefined) again = setTimeout(() => setTries(tries + 1), pause);
    });
    return () => {
      alive = false;
      clearTimeout(again);
    };
  }, [seen, props.type, props.broken, tries]);
  if (src !== '') return <img src={src} alt="" style={PICTURE} data-testid="effect-thumb" data-type={props.type} />;
  return (
    <span
      ref={box}
      aria-hidden="true"
      style={`${PICTURE};display:flex;align-items:center;justify-content:center;font-size:11px;color:#aaa`}
    >
      {props.broken ? 'does not compile' : ''}
    </span>
  );
}

/** Arrow keys move the focus through the grid's buttons (left/up back, right/down on; down from the search field to the first); Escape closes. */
function moveFocus(list: HTMLElement, e: KeyboardEvent, close: () => void): void {
  if (e.key === 'Escape') {
    e.preventDefault();
    close();
    return;
  }
  // In the search field the side arrows move the caret; only down leaves it for the grid.
  const inField = (e.target as HTMLElement).tagName === 'INPUT';
  if (inField && e.key !== 'ArrowDown') return;
  const step = e.key === 'ArrowRight' || e.key === 'ArrowDown' ? 1 : e.key === 'ArrowLeft' || e.key === 'ArrowUp' ? -1 : 0;
  if (step === 0) return;
  const buttons = [...list.querySelectorAll<HTMLButtonElement>('button[data-type]')];
  if (buttons.length === 0) return;
  e.preventDefault();
  const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
  const next = at < 0 ? 0 : Math.min(buttons.length - 1, Math.max(0, at + step));
  buttons[next]!.focus();
}

export function AddMenu() {
  const catalog = useLive((s) => s.catalog);
  const chain = useLive((s) => s.chain);
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const list = useRef<HTMLUListElement>(null);
  const inChain = new Set(chain.items.map((i) => i.type));
  const shown: Item[] = catalog.filter((c) => query.trim() === '' || matches(c.name, query) || matches(c.type, query));
  return (
    <div class="addmenu">
      <button type="button" class="primary" aria-expanded={open} onClick={() => setOpen(!open)} data-testid="add-effect">
        Add effect
      </button>
      {open && (
        // biome-ignore lint/a11y/noStaticElementInteractions: arrow keys and Escape for the search field and the buttons inside
        <div class="menu" onKeyDown={(e) => list.current && moveFocus(list.current, e, () => setOpen(false))}>
          <label class="field">
            <span>Find an effect</span>
            <input
              type="search"
              value={query}
              onInput={(e) => setQuery(e.currentTarget.value)}
              data-testid="effect-search"
              // biome-ignore lint/a11y/noAutofocus: the operator just opened the picker to type a name
              autoFocus
            />
          </label>
          <ul class="catalog" ref={list} data-testid="effect-picker">
            {shown.map((c) => (
              <li key={c.type}>
                <button
                  type="button"
                  data-type={c.type}
                  title={c.loadError ?? c.name}
                  onClick={async () => {
                    const b = await post('/effects/add', { type: c.type });
                    if (b) setOpen(false);
                  }}
                >
                  <EffectThumb type={c.type} name={c.name} broken={c.loadError !== undefined} />
                  {c.name}
                  {inChain.has(c.type) ? ' •' : ''}
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
