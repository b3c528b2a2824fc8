import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Venue } from '@hostboard/venue';
import type { EntryStatus } from '../entries/queue-entry.entity.js';

/** A party's contact as staff corrected it, seen inside the correction's transaction (under the venue lock). */
export interface CorrectedContact {
  venue: Venue;
  entry: { id: string; name: string; status: EntryStatus };
  before: { email: string | null; phone: string | null };
  after: { email: string | null; phone: string | null };
  at: Date;
}

export type ContactFollower = (tx: EntityManager, c: CorrectedContact) => Promise<void>;

/**
 * What else follows a corrected contact, registered by the modules that own it: a live offer lives
 * in the offer module, which depends on this one, so it registers here rather than being called.
 */
@Injectable()
export class EntryCorrectionHooks {
  private readonly followers: ContactFollower[] = [];

  onContactCorrected(follower: ContactFollower): void {
    this.followers.push(follower);
  }

  async contactCorrected(tx: EntityManager, c: CorrectedContact): Promise<void> {
    for (const follow of this.followers) await follow(tx, c);
  }
}
