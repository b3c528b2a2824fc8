import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { StaffUser } from './staff-user.entity.js';

@Injectable()
export class StaffUserRepository {
  findByEmail(tx: EntityManager, email: string): Promise<StaffUser | null> {
    return tx.findOneBy(StaffUser, { email });
  }

  findById(tx: EntityManager, id: string): Promise<StaffUser | null> {
    return tx.findOneBy(StaffUser, { id });
  }

  async insert(tx: EntityManager, user: Omit<StaffUser, 'id'>): Promise<StaffUser> {
    const row = tx.create(StaffUser, { id: randomUUID(), ...user });
    await tx.insert(StaffUser, row);
    return row;
  }

  /** A new password: whoever set it, it is no longer someone else's choice unless `mustChange`. */
  async setPassword(tx: EntityManager, id: string, passwordHash: string, mustChange: boolean): Promise<void> {
    await tx.update(
      StaffUser,
      { id },
      mustChange ? { passwordHash, mustChangePassword: true } : { passwordHash, mustChangePassword: false, provisionedByVenueId: null },
    );
  }

  lockById(tx: EntityManager, id: string): Promise<StaffUser | null> {
    return tx.findOne(StaffUser, { where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  async count(tx: EntityManager): Promise<number> {
    return tx.count(StaffUser);
  }
}
