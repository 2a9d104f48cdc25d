import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

/**
 * Starts `count` requests in the same tick and waits for all of them: on PostgreSQL they run on as many
 * pooled connections at once, on PGlite their statements interleave on its one connection.
 */
export function concurrently<T>(count: number, send: (index: number) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: count }, (_, index) => send(index)));
}

/**
 * The "check, then write" rule held under concurrency: exactly one response has the winning status and
 * every other one a losing status. Answers the winner's index.
 */
export function expectOneWinner(
  responses: LightMyRequestResponse[],
  expected: { winner: number; losers: number[] },
): number {
  const statuses = responses.map((response) => response.statusCode);
  const winners = statuses.filter((status) => status === expected.winner);
  expect(winners, `exactly one ${expected.winner} among ${statuses.join(', ')}`).toHaveLength(1);
  for (const response of responses) {
    if (response.statusCode !== expected.winner) expect(expected.losers, response.body).toContain(response.statusCode);
  }
  return statuses.indexOf(expected.winner);
}

/** Sends `count` requests at once and asserts exactly one winner; answers all the responses. */
export async function raceForOne(
  count: number,
  send: (index: number) => Promise<LightMyRequestResponse>,
  expected: { winner: number; losers: number[] },
): Promise<LightMyRequestResponse[]> {
  const responses = await concurrently(count, send);
  expectOneWinner(responses, expected);
  return responses;
}
