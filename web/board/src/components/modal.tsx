import type { ComponentChildren } from 'preact';

interface Props {
  title: string;
  onClose: () => void;
  children: ComponentChildren;
  testId?: string;
}

/** A full-width sheet over the board (no hover, no small close targets: this is a touch screen). */
export function Modal({ title, onClose, children, testId }: Props) {
  return (
    <div class="modal-backdrop" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <section class="modal" role="dialog" aria-modal="true" aria-label={title} data-testid={testId}>
        <header class="modal-head">
          <h2>{title}</h2>
          <button type="button" class="btn btn-secondary" onClick={onClose}>
            Close
          </button>
        </header>
        {children}
      </section>
    </div>
  );
}
