import type { MigrationInterface } from 'typeorm';
import { Initial1796153038184 } from './1796153038184-initial.js';
import { QueueOffersReservations1796154221021 } from './1796154221021-queue-offers-reservations.js';
import { RestaurantQueue1796155347723 } from './1796155347723-restaurant-queue.js';
import { TableReservations1796156249353 } from './1796156249353-table-reservations.js';
import { OutboxSending1796157220102 } from './1796157220102-outbox-sending.js';
import { BoardFloorAndNotes1796189900316 } from './1796189900316-board-floor-and-notes.js';
import { GuestChannels1796190122787 } from './1796190122787-guest-channels.js';
import { EntryQuotes1796190155236 } from './1796190155236-entry-quotes.js';
import { VenueCountry1796190292083 } from './1796190292083-venue-country.js';
import { AddVenueDecisions1796190448932 } from './1796190448932-add-venue-decisions.js';
import { StaffInvitations1796191233817 } from './1796191233817-staff-invitations.js';
import { WaitingDateIndex1796319033226 } from './1796319033226-waiting-date-index.js';
import { OutboxNotSent1796400000000 } from './1796400000000-outbox-not-sent.js';
import { OutboxRetries1796400100000 } from './1796400100000-outbox-retries.js';
import { SeatedTablesFromSeating1796400200000 } from './1796400200000-seated-tables-from-seating.js';
import { OutboxClaimedAt1796400250000 } from './1796400250000-outbox-claimed-at.js';
import { InvitationEndReason1796400300000 } from './1796400300000-invitation-end-reason.js';
import { InvitationName1796400400000 } from './1796400400000-invitation-name.js';
import { HoldingTablesIndex1796523213494 } from './1796523213494-holding-tables-index.js';
import { HoldingTurnStart1796523300000 } from './1796523300000-holding-turn-start.js';
import { CrossVenueKeys1796523400000 } from './1796523400000-cross-venue-keys.js';
import { CombinationOutboxVenueKeys1796523500000 } from './1796523500000-combination-outbox-venue-keys.js';
import { ReservationConfirmedAt1796523600000 } from './1796523600000-reservation-confirmed-at.js';

/** Every migration, oldest first. Add a new one with `npm run cli -- migration-generate <Name>`. */
export const MIGRATIONS: Array<new () => MigrationInterface> = [
  Initial1796153038184,
  QueueOffersReservations1796154221021,
  RestaurantQueue1796155347723,
  TableReservations1796156249353,
  OutboxSending1796157220102,
  BoardFloorAndNotes1796189900316,
  GuestChannels1796190122787,
  EntryQuotes1796190155236,
  VenueCountry1796190292083,
  AddVenueDecisions1796190448932,
  StaffInvitations1796191233817,
  WaitingDateIndex1796319033226,
  OutboxNotSent1796400000000,
  OutboxRetries1796400100000,
  SeatedTablesFromSeating1796400200000,
  OutboxClaimedAt1796400250000,
  InvitationEndReason1796400300000,
  InvitationName1796400400000,
  HoldingTablesIndex1796523213494,
  HoldingTurnStart1796523300000,
  CrossVenueKeys1796523400000,
  CombinationOutboxVenueKeys1796523500000,
  ReservationConfirmedAt1796523600000,
];
