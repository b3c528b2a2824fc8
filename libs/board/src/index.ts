export * from './board-event.entity.js';
export * from './board-event.writer.js';
export * from './board-publisher.js';
export * from './board.module.js';
