/**
 * The suite runs on the Node.js the project pins (the registry's `node` package, a devDependency),
 * not on whatever older Node the machine has: `npm test` and CI put node_modules/.bin first on PATH.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string }; devDependencies: Record<string, string> };

describe('runtime', () => {
  it('is the pinned Node.js, which satisfies engines', () => {
    expect(process.versions.node).toBe(manifest.devDependencies.node);
    const [wantMajor, wantMinor] = manifest.engines.node.replace('>=', '').split('.').map(Number);
    const [major, minor] = process.versions.node.split('.').map(Number);
    expect(major! > wantMajor! || (major === wantMajor && minor! >= wantMinor!)).toBe(true);
  });

  it('is the version .nvmrc names', () => {
    expect(process.versions.node.split('.')[0]).toBe(readFileSync('.nvmrc', 'utf8').trim());
  });
});
