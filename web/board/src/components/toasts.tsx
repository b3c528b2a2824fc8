import { dismiss, toasts } from '../state/notice';

/** Over the content at the bottom of the screen: nothing on the page moves when one appears. */
export function Toasts() {
  const list = toasts.value;
  return (
    <div class="toasts" aria-live="polite">
      {list.map((t) => (
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
