// Not './bullmq/bullmq.scheduler.js': BullMQ loads only where Redis is configured (jobs.module.ts);
// import it by its path where it is wanted.
export * from './in-process/in-process.scheduler.js';
export * from './job-scheduler.js';
export * from './job.registry.js';
export * from './jobs.module.js';
export * from './maintenance.handlers.js';
export * from './sweep-health.js';
