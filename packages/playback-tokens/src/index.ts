export * from './claims.js';
export * from './generate.js';
export * from './keyring.js';
export * from './reasons.js';
export * from './verify.js';
export { addressAllowed, originAllowed, originOf } from './viewer.js';
