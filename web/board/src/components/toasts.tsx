import { useLayoutEffect, useRef } from 'preact/hooks';
import { dismiss, MAX_SHOWN, toasts } from '../state/notice';

/**
 * Over the content at the bottom of the screen: nothing on the page moves when one appears. The
 * oldest few show; the rest wait, counted, and each appears as one before it is dismissed.
 */
export function Toasts() {
  const list = toasts.value;
  const waiting = list.length - MAX_SHOWN;
  const stack = useRef<HTMLDivElement>(null);
  // How tall the stack stands, for a sheet open under it (styles.css, --toasts-h): on a phone three
  // notices covered a third of the party's sheet, its Save and Remove under them whatever the
  // host scrolled. The sheet leaves that much room at its foot, to scroll its last buttons above them.
  useLayoutEffect(() => {
    const el = stack.current;
    if (!el) return undefined;
    const root = document.documentElement;
    const measure = (): void => {
      const h = el.childElementCount > 0 ? Math.ceil(el.getBoundingClientRect().height) : 0;
      root.style.setProperty('--toasts-h', `${h}px`);
    };
    measure();
    const seen = new ResizeObserver(measure);
    seen.observe(el);
    return () => seen.disconnect();
  }, []);
  return (
    <div class="toasts" aria-live="polite" ref={stack}>
      {waiting > 0 && (
        <p class="toast toast-more" role="status" data-testid="notices-waiting" data-count={waiting}>
          {waiting === 1 ? '1 more notice' : `${waiting} more notices`}: tap OK on one to see the next.
        </p>
      )}
      {list.slice(0, MAX_SHOWN).map((t) => (
        <p
          key={t.id}
          class={`toast toast-${t.kind}`}
          role={t.kind === 'error' || t.kind === 'alert' ? 'alert' : 'status'}
          data-testid="notice"
          data-kind={t.kind}
        >
          <span>{t.text}</span>
          <button type="button" class="btn btn-secondary" aria-label="Dismiss" onClick={() => dismiss(t.id)}>
            OK
          </button>
        </p>
      ))}
    </div>
  );
}

/**
 * Scrolls the page so that `el` (a form's refusal and its buttons) ends above the notices stacked
 * at the foot of the screen: on a phone three of them cover a third of it, and a form's refusal
 * came up under them, unread, with the form's buttons.
 */
export function clearOfToasts(el: Element | null): void {
  if (!el) return;
  const stack = document.querySelector('.toasts');
  const foot = stack && stack.childElementCount > 0 ? stack.getBoundingClientRect().top : window.innerHeight;
  const below = el.getBoundingClientRect().bottom - (foot - 8);
  if (below > 0) window.scrollBy(0, below);
}
