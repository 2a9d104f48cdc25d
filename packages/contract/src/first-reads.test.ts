import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Account, WhoAmI, whoAmIRoute } from './account.js';
import { accountRoutes } from './accounts.js';
import { StreamInputSummary, streamListRoute } from './stream-list.js';
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
});
