// Everything the contract exports (exports.ts: a new file of the contract is one line there) and the route table
// made from the route groups among them (route-table.ts).
export * from './exports.js';
export * from './route-table.js';
