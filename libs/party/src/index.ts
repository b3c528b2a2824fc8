export * from './party-queue.service.js';
export * from './party.module.js';
