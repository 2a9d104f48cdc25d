import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Account, WhoAmI, whoAmIRoute } from './account.js';
import { accountRoutes } from './accounts.js';
import { StreamInputSummary, streamListRoute, streamSummaryOf } from './stream-list.js';
import { StreamInput, streamRoutes } from './streams.js';

/** The relative modules and packages a source file of this folder imports. */
function importsOf(file: string): string[] {
  const source = readFileSync(new URL(file, import.meta.url), 'utf8');
  return [...source.matchAll(/^import [^;]*? from '([^']+)';/gms)].map((match) => match[1] ?? '');
}

// The console's first screen reads the stream list and whoami through these modules so that it builds
// their few schemas and not every stream and account schema (docs/decisions.md, issue 21).
describe("the first screen's reads", () => {
  it("are the route tables' own routes", () => {
    expect(streamRoutes.list).toBe(streamListRoute);
    expect(accountRoutes.whoami).toBe(whoAmIRoute);
  });

  it('build only what they answer with: their modules import zod, common.ts and routes.ts alone', () => {
    for (const file of ['./stream-list.ts', './account.ts']) {
      expect(importsOf(file).sort()).toEqual(['./common.js', './routes.js', 'zod']);
    }
  });

  it('share their fields with the full resources', () => {
    for (const [key, field] of Object.entries(StreamInputSummary.shape)) {
      expect(StreamInput.shape[key as keyof typeof StreamInput.shape]).toBe(field);
    }
    for (const [key, field] of Object.entries(Account.shape)) {
      expect(WhoAmI.shape[key as keyof typeof WhoAmI.shape]).toBe(field);
    }
  });

  it("make a stream's row of the list from the full stream: the row's members, nothing more", () => {
    const row = {
      id: '0b9a3c1e-2d4f-4a6b-8c0d-1e2f3a4b5c6d',
      ownerId: '1b9a3c1e-2d4f-4a6b-8c0d-1e2f3a4b5c6d',
      caption: 'Camera',
      format: 'RTMP',
      status: 'Idle',
      access: 'Public',
      outputMode: 'Passthrough',
      name: 'pt+0b9a3c1e-2d4f-4a6b-8c0d-1e2f3a4b5c6d',
      nodeId: null,
      createdAt: '2026-11-27T20:00:00.000Z',
    } as const;
    expect(streamSummaryOf({ ...row, gslb: false, accessToken: null } as typeof row)).toEqual(row);
  });
});
