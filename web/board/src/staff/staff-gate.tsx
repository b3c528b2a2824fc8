import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { session, signInAs } from '../state/session';
import { AccountPanel } from './account-panel';
import { ClaimView } from './claim-view';
import { claimTokenInLocation, type StaffSession } from './staff-api';

/**
 * In front of the page: an invitation link opens the claim form; a session whose password someone
 * else chose asks for a new one first. Otherwise the page as usual.
 */
export function StaffGate({ children }: { children: ComponentChildren }) {
  const [claim, setClaim] = useState(claimTokenInLocation());
  if (claim) return <ClaimView token={claim} onDone={() => setClaim(null)} />;
  const s: StaffSession | null = session.value;
  if (s?.mustChangePassword) {
    return (
      <main class="login">
        <AccountPanel forced onChanged={() => signInAs(passwordChosen(s))} />
      </main>
    );
  }
  return <>{children}</>;
}

/** The stored session once its holder chose their own password (a reload must not ask again). */
function passwordChosen(s: StaffSession): StaffSession {
  return { ...s, mustChangePassword: false };
}
