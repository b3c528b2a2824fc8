import { BoardView } from './views/board-view';
import { LoginView } from './views/login-view';
import { MessagesView } from './views/messages-view';
import { VenuePicker } from './views/venue-picker';
import { StaffGate } from './staff/staff-gate';
import { StaffView } from './staff/staff-view';
import { route } from './state/router';
import { session } from './state/session';

export function App() {
  return (
    <StaffGate>
      <Views />
    </StaffGate>
  );
}

function Views() {
  if (!session.value) return <LoginView />;
  const r = route.value;
  switch (r.view) {
    case 'venues':
      return <VenuePicker />;
    case 'board':
      return <BoardView key={r.venueId} venueId={r.venueId} />;
    case 'messages':
      return <MessagesView key={r.venueId} venueId={r.venueId} />;
    case 'staff':
      return <StaffView key={r.venueId} venueId={r.venueId} />;
  }
}
