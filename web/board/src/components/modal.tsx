import type { ComponentChildren } from 'preact';

interface Props {
  title: string;
  /** Absent: the sheet cannot be closed by a tap outside or a Close button (the token card). */
  onClose?: () => void;
  children: ComponentChildren;
  testId?: string;
}

/** A sheet over the board: full screen on a phone, centred on a tablet; scrolls inside itself. */
export function Modal({ title, onClose, children, testId }: Props) {
  return (
    <div class="modal-backdrop" onClick={(e) => onClose && e.target === e.currentTarget && onClose()}>
      <section class="modal" role="dialog" aria-modal="true" aria-label={title} data-testid={testId}>
        <header class="modal-head">
          <h2>{title}</h2>
          {onClose && (
            <button type="button" class="btn btn-secondary" onClick={onClose}>
              Close
            </button>
          )}
        </header>
        {children}
      </section>
    </div>
  );
}
