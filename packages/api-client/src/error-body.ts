// Loaded with the first error answer (client.ts): the schema brings zod, which a page that has not called
// the API yet (the console's sign-in page) does without.
export { ErrorBody } from '@streamcloud/contract';
