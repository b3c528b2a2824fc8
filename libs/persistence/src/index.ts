export * from './data-source.factory.js';
export * from './database.readiness.js';
export * from './embedded/data-folder-lock.js';
export * from './embedded/embedded-database.js';
export * from './entities.js';
export * from './persistence.module.js';
export * from './connection-budget.js';
export * from './database-watch.js';
