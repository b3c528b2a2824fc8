import { notice } from '../state/notice';

/** The latest refusal (in the API's words) or confirmation; a sync problem shows beside it. */
export function NoticeBar({ extra }: { extra?: string | null }) {
  const n = notice.value;
  if (!n && !extra) return null;
  return (
    <div class="notices">
      {n && (
        <p
          class={`notice notice-${n.kind}`}
          role={n.kind === 'error' ? 'alert' : 'status'}
          data-testid="notice"
          data-kind={n.kind}
        >
          <span>{n.text}</span>
          <button type="button" class="btn btn-secondary" onClick={() => (notice.value = null)}>
            Dismiss
          </button>
        </p>
      )}
      {extra && (
        <p class="notice notice-error" role="alert" data-testid="sync-problem">
          {extra}
        </p>
      )}
    </div>
  );
}
