import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Venue } from './venue.entity.js';

@Injectable()
export class VenueRepository {
  findById(tx: EntityManager, id: string): Promise<Venue | null> {
    return tx.findOneBy(Venue, { id });
  }

  findBySlug(tx: EntityManager, slug: string): Promise<Venue | null> {
    return tx.findOneBy(Venue, { slug });
  }

  async insert(tx: EntityManager, venue: Venue): Promise<void> {
    await tx.insert(Venue, venue);
  }

  async update(tx: EntityManager, id: string, changes: Partial<Venue>): Promise<void> {
    if (Object.keys(changes).length > 0) await tx.update(Venue, { id }, changes);
  }

  /** The venues a staff user belongs to, with their role. */
  listForUser(tx: EntityManager, userId: string): Promise<Array<Venue & { role: string }>> {
    return tx
      .createQueryBuilder(Venue, 'v')
      .innerJoin('venue_memberships', 'm', 'm.venue_id = v.id AND m.user_id = :userId', { userId })
      .orderBy('v.name')
      .getMany() as Promise<Array<Venue & { role: string }>>;
  }
}
