export * from './client.js';
export { readCookie } from './cookies.js';
export * from './error.js';
