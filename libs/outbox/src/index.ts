export * from './messages.service.js';
export * from './outbox-message.entity.js';
export * from './outbox.module.js';
export * from './outbox.writer.js';
export * from './outbox.relay.js';
