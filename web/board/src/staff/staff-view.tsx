import { atLeast } from '../state/role';
import type { TabProps } from '../views/registry';
import { AccountPanel } from './account-panel';
import { MembersPanel } from './members-panel';
import './staff.css';

/**
 * The Staff tab: the venue's members for managers and owners (list, add, change role, remove,
 * reset a password, see and cancel pending invitations), and for everyone their own account
 * (change password, sign out everywhere).
 */
export function StaffView({ venueId, role, data }: TabProps) {
  return (
    <main class="staff page">
      {atLeast(role, 'manager') && <MembersPanel venueId={venueId} role={role} timeZone={data.venue.value?.timeZone} />}
      <AccountPanel />
    </main>
  );
}
