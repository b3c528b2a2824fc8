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

  async count(tx: EntityManager): Promise<number> {
    return tx.count(StaffUser);
  }
}
