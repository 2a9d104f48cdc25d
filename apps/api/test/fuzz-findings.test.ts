import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { databaseState } from './database-state.js';
import { expectValidationError, useTestApp } from './helpers.js';

// Counterexamples the fuzzing suite (fuzz.test.ts) found, kept as regular tests.

const t = useTestApp({}, { roles: true });

describe('fuzzing counterexamples', () => {
  it('a stream for an account that does not exist is a 400 naming the owner, not a 500 (seed 76)', async () => {
    const before = await databaseState(t.database.db, ['audit_log']);
    const response = await t.request({
      method: 'POST',
      url: '/api/v1/inputs',
      token: t.roles.admin.token,
      payload: { ownerId: randomUUID() },
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toEqual({ message: 'Owner account does not exist', code: 'UNKNOWN_OWNER' });
    expect(await databaseState(t.database.db, ['audit_log'])).toEqual(before);
  });

  it('whole numbers beyond what the database stores are a 400 naming the field, not a 500 (seed 37)', async () => {
    const node = await t.createNode(t.roles.admin);
    const streamId = (await t.createInput()).id;
    const before = await databaseState(t.database.db);
    const load = await t.report(node.token, [
      { id: 'r1', kind: 'load', cpuPercent: 1, bandwidthMbps: 1, sessions: 8406069508813466 },
    ]);
    expectValidationError(load, 'body.reports.0.sessions');
    const track = { type: 'Video', codec: 'h264', width: 1280, height: 720, bps: null, channels: null, rate: null };
    const tracks = await t.report(node.token, [
      {
        id: 'r2',
        kind: 'stream-state',
        streamId,
        tracks: {
          outgoing: [
            { ...track, idx: 4019897044671329 },
            { ...track, idx: 1, width: -2719979860190005 },
          ],
        },
      },
    ]);
    expectValidationError(tracks, 'body.reports.0.tracks.outgoing.0.idx');
    expectValidationError(tracks, 'body.reports.0.tracks.outgoing.1.width');
    expect(await databaseState(t.database.db)).toEqual(before);
  });
});
