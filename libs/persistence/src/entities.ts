import { HistoryRow, IdempotencyKeyRow } from '@hostboard/core';
import { AuditEvent } from '@hostboard/auth/audit/audit-event.entity.js';
import { StaffSession } from '@hostboard/auth/sessions/staff-session.entity.js';
import { StaffUser } from '@hostboard/auth/users/staff-user.entity.js';
import { StaffInvitation } from '@hostboard/auth/invitations/staff-invitation.entity.js';
import { VenueMembership } from '@hostboard/auth/memberships/venue-membership.entity.js';
import { Venue } from '@hostboard/venue/venues/venue.entity.js';
import { VenueTable } from '@hostboard/venue/tables/venue-table.entity.js';
import { TableCombination } from '@hostboard/venue/tables/table-combination.entity.js';
import { TableCombinationTable } from '@hostboard/venue/tables/table-combination-table.entity.js';
import { ServiceWindow } from '@hostboard/venue/service-windows/service-window.entity.js';
import { QueueEntry } from '@hostboard/queue/entries/queue-entry.entity.js';
import { QueueToken } from '@hostboard/queue/tokens/queue-token.entity.js';
import { QueueSession } from '@hostboard/queue/sessions/queue-session.entity.js';
import { Reservation } from '@hostboard/allocator/reservation.entity.js';
import { Offer } from '@hostboard/offer/offers/offer.entity.js';
import { OutboxMessage } from '@hostboard/outbox/outbox-message.entity.js';
import { BoardEvent } from '@hostboard/board/board-event.entity.js';
import { ReservationTable } from '@hostboard/allocator/tables/reservation-table.entity.js';
import { Visit } from '@hostboard/allocator/tables/visit.entity.js';
import { BookingSession } from '@hostboard/booking/sessions/booking-session.entity.js';
import { EntryQuote } from '@hostboard/quote/estimates/entry-quote.entity.js';

/** Every entity of the schema, listed (no globs: ES modules and bundlers make globs fragile). */
export const ENTITIES = [
  HistoryRow,
  IdempotencyKeyRow,
  StaffUser,
  StaffSession,
  VenueMembership,
  StaffInvitation,
  AuditEvent,
  Venue,
  VenueTable,
  TableCombination,
  TableCombinationTable,
  ServiceWindow,
  QueueEntry,
  QueueToken,
  QueueSession,
  Reservation,
  ReservationTable,
  Visit,
  BookingSession,
  Offer,
  OutboxMessage,
  BoardEvent,
  EntryQuote,
];
