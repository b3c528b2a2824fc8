import { useEffect, useState } from 'preact/hooks';
import type { Venue } from '../api/types';
import { TopBar } from '../components/top-bar';
import { api } from '../state/session';
import { AccountPanel } from './account-panel';
import { MembersPanel } from './members-panel';
import './staff.css';

/** The Staff tab: the venue's members (managers and owners) and, for everyone, their own account. */
export function StaffView({ venueId }: { venueId: string }) {
  const [venue, setVenue] = useState<Venue | null>(null);
  useEffect(() => {
    api.get<Venue>(`/v1/venues/${venueId}`).then(setVenue, () => undefined);
  }, [venueId]);
  return (
    <>
      <TopBar title={venue ? `${venue.name}: staff` : 'Staff'} venueId={venueId} current="staff" />
      <main class="staff">
        <MembersPanel venueId={venueId} />
        <AccountPanel />
      </main>
    </>
  );
}
