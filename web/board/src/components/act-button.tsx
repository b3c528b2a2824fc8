import { useState } from 'preact/hooks';
import type { ComponentChildren } from 'preact';
import { refused } from '../state/notice';
import { offline } from '../state/offline';

interface Props {
  /** The act; a refusal it throws is shown in the API's words. */
  onAct: () => Promise<unknown>;
  children: ComponentChildren;
  kind?: 'primary' | 'secondary' | 'danger';
  /** Ask for a second tap first (for acts that cannot be undone, on a touch screen with no hover). */
  confirm?: string;
  disabled?: boolean;
  testId?: string;
  wide?: boolean;
  /** The action bar's size (a big touch target sharing the bar's width). */
  big?: boolean;
}

/** A big touch target that runs one act at a time, shows what went wrong, and waits while offline. */
export function ActButton({ onAct, children, kind = 'secondary', confirm, disabled, testId, wide, big }: Props) {
  const [busy, setBusy] = useState(false);
  const [armed, setArmed] = useState(false);
  const click = async (): Promise<void> => {
    if (confirm && !armed) {
      setArmed(true);
      window.setTimeout(() => setArmed(false), 4000);
      return;
    }
    setArmed(false);
    setBusy(true);
    try {
      await onAct();
    } catch (err) {
      refused(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <button
      type="button"
      class={`btn btn-${armed ? 'danger' : kind}${wide ? ' wide' : ''}${big ? ' big' : ''}`}
      disabled={disabled || busy || offline.value}
      aria-busy={busy}
      data-testid={testId}
      onClick={() => void click()}
    >
      {armed ? confirm : children}
    </button>
  );
}
