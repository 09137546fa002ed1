// A virtualised list: only the rows in view (plus a few) are in the DOM, so 5 000 items scroll without freezing.
// Keyboard: it is one listbox; arrows, Home/End and PageUp/PageDown move the active row, which is kept rendered.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

export const ROW_PX = 56;
const OVERSCAN = 6;

export function VirtualList<T>(props: {
  items: T[];
  label: string;
  height: number;
  active: number;
  setActive: (i: number) => void;
  onKey: (e: KeyboardEvent, item: T) => void;
  row: (item: T, index: number, active: boolean) => ComponentChildren;
  rowId: (index: number) => string;
  testid?: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [top, setTop] = useState(0);
  const frame = useRef(0);
  const n = props.items.length;
  useEffect(() => {
    // Keep the active row in view when the keyboard moves it.
    const el = box.current;
    if (!el || props.active < 0) return;
    const y = props.active * ROW_PX;
    if (y < el.scrollTop) el.scrollTop = y;
    else if (y + ROW_PX > el.scrollTop + el.clientHeight) el.scrollTop = y + ROW_PX - el.clientHeight;
  }, [props.active]);
  useEffect(() => {
    if (box.current) box.current.scrollTop = 0;
    setTop(0);
  }, [props.items]);
  const first = Math.max(0, Math.floor(top / ROW_PX) - OVERSCAN);
  const last = Math.min(n, Math.ceil((top + props.height) / ROW_PX) + OVERSCAN);
  const rows = [];
  for (let i = first; i < last; i++) {
    rows.push(
      // biome-ignore lint/a11y/useFocusableInteractive: focus stays on the listbox, which points at the active option (aria-activedescendant)
      <div
        key={i}
        id={props.rowId(i)}
        role="option"
        aria-selected={i === props.active}
        aria-posinset={i + 1}
        aria-setsize={n}
        class={i === props.active ? 'vrow active' : 'vrow'}
        style={{ transform: `translateY(${i * ROW_PX}px)` }}
      >
        {props.row(props.items[i]!, i, i === props.active)}
      </div>,
    );
  }
  const page = Math.max(1, Math.floor(props.height / ROW_PX) - 1);
  return (
    <div
      ref={box}
      class="vlist"
      role="listbox"
      tabIndex={0}
      aria-label={props.label}
      aria-activedescendant={props.active >= 0 && props.active < n ? props.rowId(props.active) : undefined}
      data-testid={props.testid}
      style={{ height: `${props.height}px` }}
      onScroll={(e) => {
        const y = e.currentTarget.scrollTop;
        cancelAnimationFrame(frame.current);
        frame.current = requestAnimationFrame(() => setTop(y));
      }}
      onKeyDown={(e) => {
        const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: page, PageUp: -page, Home: -n, End: n };
        const d = moves[e.key];
        if (d !== undefined && n > 0) {
          e.preventDefault();
          props.setActive(Math.max(0, Math.min(n - 1, Math.max(props.active, 0) + d)));
          return;
        }
        const item = props.items[props.active];
        if (item !== undefined) props.onKey(e, item);
      }}
    >
      <div class="vspace" style={{ height: `${n * ROW_PX}px` }}>
        {rows}
      </div>
    </div>
  );
}
