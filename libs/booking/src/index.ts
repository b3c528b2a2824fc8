export * from './booking.module.js';
export * from './booking.service.js';
