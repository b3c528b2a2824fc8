import { LoginView } from './views/login-view';
import { VenuePicker } from './views/venue-picker';
import { VenueShell } from './views/venue-shell';
import { Toasts } from './components/toasts';
import { StaffGate } from './staff/staff-gate';
import { route } from './state/router';
import { session } from './state/session';

export function App() {
  const r = route.value;
  return (
    <StaffGate>
      {!session.value ? (
        <LoginView />
      ) : r.view === 'venue' ? (
        <VenueShell key={r.venueId} venueId={r.venueId} tab={r.tab} />
      ) : (
        <VenuePicker />
      )}
      <Toasts />
    </StaffGate>
  );
}
