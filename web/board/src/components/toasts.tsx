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
