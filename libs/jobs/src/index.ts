export * from './bullmq/bullmq.scheduler.js';
export * from './in-process/in-process.scheduler.js';
export * from './job-scheduler.js';
export * from './job.registry.js';
export * from './jobs.module.js';
export * from './maintenance.handlers.js';
export * from './sweep-health.js';
