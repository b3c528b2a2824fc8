import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';

interface Props {
  title: string;
  /** Absent: the sheet cannot be closed by a tap outside, Escape or a Close button (the token card). */
  onClose?: () => void;
  children: ComponentChildren;
  testId?: string;
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * A sheet over the board: full screen on a phone, centred on a tablet; scrolls inside itself. With
 * a keyboard (a tablet's, or a screen reader's) it behaves as a dialog: focus moves into it (to the
 * field marked autofocus, else the first control), Tab stays inside it, Escape closes it, and focus
 * goes back to what opened it (or, when an act replaced that button, to the party's row). The keys are heard on the document, not on the sheet: a button
 * disabled while its request runs drops the focus to the page, and the sheet must still answer
 * Escape and keep Tab inside it then (only the topmost sheet answers).
 */
export function Modal({ title, onClose, children, testId }: Props) {
  const dialog = useRef<HTMLElement>(null);
  const close = useRef(onClose);
  close.current = onClose;
  // A layout effect: focus moves as the sheet appears, not a frame later (a tap or key in between
  // would land behind it).
  useLayoutEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const el = dialog.current;
    const first = el?.querySelector<HTMLElement>('[autofocus]') ?? el?.querySelector<HTMLElement>(FOCUSABLE) ?? el;
    first?.focus();
    // The party's row the sheet was opened from: an act often replaces the opener there (Offer a
    // table becomes Accept), and its focus then fell to the page, to be found again from the top.
    const row = opener?.closest<HTMLElement>('[data-entry-id], [data-reservation-id]');
    const rowKey = row?.dataset['entryId']
      ? `[data-entry-id="${CSS.escape(row.dataset['entryId'])}"]`
      : row?.dataset['reservationId']
        ? `[data-reservation-id="${CSS.escape(row.dataset['reservationId'])}"]`
        : null;
    return () => {
      if (opener?.isConnected) opener.focus();
      // The board redraws after the sheet closes: look again once it has.
      window.setTimeout(() => {
        if (opener?.isConnected) {
          if (document.activeElement === document.body) opener.focus();
          return;
        }
        if (!rowKey || (document.activeElement && document.activeElement !== document.body)) return;
        document.querySelector(rowKey)?.querySelector<HTMLElement>(FOCUSABLE)?.focus();
      }, 0);
    };
  }, []);
  useEffect(() => {
    const onKeyDown = (e: KeyboardEvent): void => {
      const el = dialog.current;
      const sheets = document.querySelectorAll('.modal[role=dialog]');
      if (!el || sheets[sheets.length - 1] !== el) return;
      if (e.key === 'Escape' && close.current) {
        e.preventDefault();
        close.current();
        return;
      }
      if (e.key !== 'Tab') return;
      const all = [...el.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((x) => x.offsetParent !== null);
      const [head, tail] = [all[0], all[all.length - 1]];
      if (!head || !tail) return;
      const inside = el.contains(document.activeElement);
      if (e.shiftKey && (!inside || document.activeElement === head)) {
        e.preventDefault();
        tail.focus();
      } else if (!e.shiftKey && (!inside || document.activeElement === tail)) {
        e.preventDefault();
        head.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
  return (
    <div class="modal-backdrop" onClick={(e) => onClose && e.target === e.currentTarget && onClose()}>
      <section ref={dialog} class="modal" role="dialog" aria-modal="true" aria-label={title} data-testid={testId} tabIndex={-1}>
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
