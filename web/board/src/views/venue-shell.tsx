import { useEffect, useMemo } from 'preact/hooks';
import { TopBar } from '../components/top-bar';
import { atLeast, loadRole, venueRole } from '../state/role';
import { VenueData } from '../state/venue-data';
import { TABS } from './registry';

/** One venue: the tabs its user's role allows, and the one open. */
export function VenueShell({ venueId, tab }: { venueId: string; tab: string }) {
  const data = useMemo(() => new VenueData(venueId), [venueId]);
  useEffect(() => void loadRole(venueId), [venueId]);
  const role = venueRole.value?.venueId === venueId ? venueRole.value.role : null;
  const venue = data.venue.value;
  // A tab for one kind of venue waits for the venue: mounted before it is known, the Reports view
  // of a seat-pool venue asked for a report the server refuses (a CI run saw the role arrive first).
  const tabs = role ? TABS.filter((t) => atLeast(role, t.minRole) && (!t.seating || t.seating === venue?.policy.seating)) : [];
  const waitingForVenue = !venue && TABS.some((t) => t.id === tab && t.seating);
  const current = waitingForVenue ? undefined : (tabs.find((t) => t.id === tab) ?? tabs[0]);
  const View = current?.view;
  return (
    <>
      <TopBar
        title={venue?.name ?? 'Venue'}
        detail={venue ? `${venue.slug} · ${venue.timeZone.replaceAll('_', ' ')}` : undefined}
        venueId={venueId}
        tabs={tabs}
        current={current?.id ?? tab}
      />
      {role && View && current ? (
        <View key={`${venueId}-${current.id}`} venueId={venueId} data={data} role={role} />
      ) : (
        <p class="muted pad">Loading…</p>
      )}
    </>
  );
}
