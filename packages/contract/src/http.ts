// The HTTP names every party agrees on. No schema here: a client that needs only these (the console's first
// load) does not bring zod along.

export const TOTAL_COUNT_HEADER = 'X-Total-Count';
export const ANTI_FORGERY_COOKIE = 'XSRF-TOKEN';
export const ANTI_FORGERY_HEADER = 'X-XSRF-TOKEN';
export const API_BASE = '/api/v1';
