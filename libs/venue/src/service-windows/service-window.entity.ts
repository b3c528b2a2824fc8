import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/**
 * When a venue serves: on the ISO weekdays in `days` (1 = Monday … 7 = Sunday), from `start_minute`
 * to `end_minute` venue-local (minutes after midnight). An end at or before the start runs past
 * midnight, and its business date is the day it starts. Equal start and end are refused.
 */
@Entity({ name: 'service_windows' })
@Index('service_windows_venue_idx', ['venueId'])
@Check('service_windows_days_check', `cardinality("days") BETWEEN 1 AND 7 AND "days" <@ ARRAY[1, 2, 3, 4, 5, 6, 7]::smallint[]`)
@Check(
  'service_windows_minutes_check',
  `"start_minute" BETWEEN 0 AND 1439 AND "end_minute" BETWEEN 0 AND 1439 AND "start_minute" <> "end_minute"`,
)
@Check('service_windows_turn_check', `"turn_minutes" BETWEEN 1 AND 720`)
export class ServiceWindow {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @ForeignKey('venues', { onDelete: 'CASCADE' })
  @Column({ name: 'venue_id', type: 'uuid' })
  venueId: string;

  @Column({ type: 'smallint', array: true })
  days: number[];

  @Column({ name: 'start_minute', type: 'smallint' })
  startMinute: number;

  @Column({ name: 'end_minute', type: 'smallint' })
  endMinute: number;

  /** How long a table turns over: the unit of the queue's wait estimate. */
  @Column({ name: 'turn_minutes', type: 'smallint' })
  turnMinutes: number;

  @Column({ name: 'deposit_required', type: 'boolean', default: false })
  depositRequired: boolean;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 6 })
  createdAt: Date;
}
