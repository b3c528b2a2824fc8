export * from './entries/contact.js';
export * from './entries/queue-entry.entity.js';
export * from './entries/queue-entry.repository.js';
export * from './entries/queue-entry.view.js';
export * from './join/join.service.js';
export * from './queue.module.js';
