import { signal } from '@preact/signals';
import { useRef, useState } from 'preact/hooks';
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

/** How long a first tap stays armed, waiting for the second. */
const ARMED_MS = 4000;

/**
 * The one button on the page waiting for its second tap, by the arming's own number (0: none). Each
 * button kept its own: a host who tapped Cancel on the wrong row, then on the right one, had two
 * live "Tap again" buttons for up to four seconds, and a second tap on the first still cancelled it.
 */
const armedNow = signal(0);
let armings = 0;

/** A big touch target that runs one act at a time, shows what went wrong, and waits while offline. */
export function ActButton({ onAct, children, kind = 'secondary', confirm, disabled, testId, wide, big }: Props) {
  const [busy, setBusy] = useState(false);
  // This button's last arming; it is armed while that is the page's one.
  const mine = useRef(-1);
  const armed = armedNow.value === mine.current;
  const disarm = (): void => {
    if (armedNow.value === mine.current) armedNow.value = 0;
  };
  const click = async (): Promise<void> => {
    if (confirm && !armed) {
      const n = ++armings;
      mine.current = n;
      armedNow.value = n;
      // Only this arming's own timer disarms it (an earlier one's must not cut a new arming short).
      window.setTimeout(() => {
        if (armedNow.value === n) armedNow.value = 0;
      }, ARMED_MS);
      return;
    }
    disarm();
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
