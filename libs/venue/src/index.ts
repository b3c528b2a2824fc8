export * from './venue.module.js';
export * from './venues/venue-presets.js';
export * from './venues/venue.entity.js';
export * from './venues/venue.repository.js';
export * from './venues/venue.service.js';
export * from './venues/venue.view.js';
export * from './venues/venue-clock.js';
