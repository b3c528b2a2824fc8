export * from './allocator.module.js';
export * from './pool.allocator.js';
export * from './reservation.entity.js';
export * from './reservation.repository.js';
export * from './reservation.view.js';
export * from './seat-words.js';
