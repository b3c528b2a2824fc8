export * from './seat-policy.model.js';
