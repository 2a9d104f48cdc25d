import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * The AWS SDK stays on the last minor line that supports Node 20 (docs/decisions.md, "Dependencies" and
 * "First-hour loose ends"): releases after early January 2027 need Node ≥ 22, which the machines do not
 * install from their registries. Every workspace pins the same line, and the installed one is on it.
 */
const read = (path: string) => JSON.parse(readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8'));
const PIN = '~3.1175.0';

describe('the AWS SDK pin', () => {
  it('is the same ~3.1175 line in every workspace, installed as such, and the engines stay on Node 20', () => {
    for (const path of ['apps/api/package.json', 'apps/media-node/package.json', 'packages/s3/package.json']) {
      const dependencies: Record<string, string> = read(path).dependencies;
      const sdk = Object.entries(dependencies).filter(([name]) => name.startsWith('@aws-sdk/'));
      expect(sdk.length, path).toBeGreaterThan(0);
      for (const [name, range] of sdk) expect(range, `${path} ${name}`).toBe(PIN);
    }
    for (const name of ['client-s3', 'lib-storage'])
      expect(read(`node_modules/@aws-sdk/${name}/package.json`).version).toMatch(/^3\.1175\.\d+$/);
    expect(read('package.json').engines.node).toBe('>=20.19');
  });
});
