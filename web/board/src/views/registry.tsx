import type { ComponentType } from 'preact';
import type { Role } from '../state/role';
import type { VenueData } from '../state/venue-data';
import { ReportsView } from '../reports/reports-view';
import { BoardView } from './board-view';
import { MessagesView } from './messages-view';
import { StaffView } from '../staff/staff-view';
import { SetupView } from './setup-view';

/** What every venue tab receives. */
export interface TabProps {
  venueId: string;
  data: VenueData;
  role: Role;
}

export interface TabDef {
  /** The path segment: /board/venues/<id>/<id> ("floor" is the venue's own address). */
  id: string;
  label: string;
  /** The least role that sees the tab (hosts never see a tab they cannot open). */
  minRole: Role;
  /** Pool or table venues only, where it applies. */
  seating?: 'tables' | 'pool';
  view: ComponentType<TabProps>;
}

/**
 * The venue's tabs, in the order shown. To add one, write its view in its own file and add a line
 * here (the Staff and Reports tabs of other issues go in the same way).
 */
export const TABS: TabDef[] = [
  { id: 'floor', label: 'Floor', minRole: 'host', view: BoardView },
  { id: 'messages', label: 'Messages', minRole: 'manager', view: MessagesView },
  // The quote report compares the floor model with the turns formula: tables only (issue 17).
  { id: 'reports', label: 'Reports', minRole: 'manager', seating: 'tables', view: ReportsView },
  { id: 'setup', label: 'Set up', minRole: 'manager', view: SetupView },
  // Everyone: managers manage the venue's staff here, and anyone changes their own password.
  { id: 'staff', label: 'Staff', minRole: 'host', view: StaffView },
];
