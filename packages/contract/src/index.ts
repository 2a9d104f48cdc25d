export * from './accounts.js';
export * from './auth.js';
export * from './common.js';
export * from './routes.js';
export * from './nodes.js';
