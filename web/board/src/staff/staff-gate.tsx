import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { session, signInAs } from '../state/session';
import { AccountPanel } from './account-panel';
import { ClaimView } from './claim-view';
import { claimTokenInLocation, type StaffSession } from './staff-api';
import './staff.css';

/**
 * In front of the page: an invitation link opens the claim form. A session whose password someone
 * else chose (a manager handed it over) gets a banner asking for a new one, above the page as usual
 * (the floor keeps working during service; the server marks the account until it is changed).
 */
export function StaffGate({ children }: { children: ComponentChildren }) {
  const [claim, setClaim] = useState(claimTokenInLocation());
  const [open, setOpen] = useState(false);
  if (claim) return <ClaimView token={claim} onDone={() => setClaim(null)} />;
  const s: StaffSession | null = session.value;
  return (
    <>
      {s?.mustChangePassword && (
        <div class="info must-change" role="status" data-testid="must-change">
          <p>
            Your password was chosen by someone else. Choose your own now.{' '}
            {!open && (
              <button type="button" class="btn btn-primary" onClick={() => setOpen(true)}>
                Change password
              </button>
            )}
          </p>
          {open && <AccountPanel forced onChanged={() => signInAs(passwordChosen(s))} />}
        </div>
      )}
      {children}
    </>
  );
}

/** The stored session once its holder chose their own password (a reload must not ask again). */
function passwordChosen(s: StaffSession): StaffSession {
  return { ...s, mustChangePassword: false };
}
