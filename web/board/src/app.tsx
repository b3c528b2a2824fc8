import { BoardView } from './views/board-view';
import { LoginView } from './views/login-view';
import { MessagesView } from './views/messages-view';
import { ReportsView } from './reports/reports-view';
import { VenuePicker } from './views/venue-picker';
import { route } from './state/router';
import { session } from './state/session';

export function App() {
  if (!session.value) return <LoginView />;
  const r = route.value;
  switch (r.view) {
    case 'venues':
      return <VenuePicker />;
    case 'board':
      return <BoardView key={r.venueId} venueId={r.venueId} />;
    case 'messages':
      return <MessagesView key={r.venueId} venueId={r.venueId} />;
    case 'reports':
      return <ReportsView key={r.venueId} venueId={r.venueId} />;
  }
}
