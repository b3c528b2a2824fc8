export * from './booking.module.js';
export * from './booking.service.js';
export * from './seating.service.js';
export * from './sessions/booking-session.entity.js';
export * from './sessions/booking-session.service.js';
export * from './walk-in.service.js';
