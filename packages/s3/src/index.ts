export * from './client.js';
export * from './failure.js';
