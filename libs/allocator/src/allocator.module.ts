import { Module } from '@nestjs/common';
import { PoolAllocator } from './pool.allocator.js';
import { ReservationRepository } from './reservation.repository.js';

/** The only place that decides seats and tables. */
@Module({ providers: [PoolAllocator, ReservationRepository], exports: [PoolAllocator, ReservationRepository] })
export class AllocatorModule {}
