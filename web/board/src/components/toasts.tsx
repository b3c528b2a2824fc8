import { dismiss, MAX_SHOWN, toasts } from '../state/notice';

/**
 * Over the content at the bottom of the screen: nothing on the page moves when one appears. The
 * oldest few show; the rest wait, counted, and each appears as one before it is dismissed.
 */
export function Toasts() {
  const list = toasts.value;
  const waiting = list.length - MAX_SHOWN;
  return (
    <div class="toasts" aria-live="polite">
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
