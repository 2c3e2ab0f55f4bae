/**
 * The shape the access model relies on, read from the source: each public operation (an exported
 * function of a module that decides access) makes exactly one access decision, and no domain module
 * calls another's public operation, so access is never decided twice with two rules.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const DOMAIN = path.resolve('src/domain');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

const files = sourceFiles(DOMAIN).map((file) => ({ file, text: readFileSync(file, 'utf8') }));
const decidesAccess = (text: string) => /\brequireAccess\(ctx/.test(text);
const publicModules = files.filter((f) => decidesAccess(f.text) && !f.file.endsWith('access-policy.ts'));

/** Each exported function's body, up to the next top-level declaration. */
function exportedFunctions(text: string): Array<{ name: string; body: string }> {
  const starts = [...text.matchAll(/^export (?:async )?function (\w+)/gm)];
  return starts.map((m, i) => {
    const end = text.slice(m.index! + 1).search(/^(?:export |function |async function |const |interface |type |\/\*\*)/m);
    return { name: m[1]!, body: end === -1 ? text.slice(m.index!) : text.slice(m.index!, m.index! + 1 + end) };
  });
}

describe('the access model', () => {
  it('has public operations to check', () => {
    expect(publicModules.length).toBeGreaterThan(10);
  });

  it('decides access only in public operations, exactly once in each', () => {
    const offenders: string[] = [];
    for (const { file, text } of publicModules) {
      for (const fn of exportedFunctions(text)) {
        const decisions = fn.body.match(/\brequireAccess\(/g)?.length ?? 0;
        if (decisions > 1) offenders.push(`${path.relative(DOMAIN, file)}: ${fn.name} decides access ${decisions} times`);
      }
      const helpers = [...text.matchAll(/^(?:async )?function (\w+)[^]*?^}/gm)].filter((m) => /\brequireAccess\(/.test(m[0]));
      for (const helper of helpers) offenders.push(`${path.relative(DOMAIN, file)}: ${helper[1]} decides access outside a public operation`);
    }
    expect(offenders).toEqual([]);
  });

  it('never lets a domain module call another public operation (types and constants only)', () => {
    const publicNames = new Map(publicModules.map((m) => [path.basename(m.file, '.ts'), new Set(exportedFunctions(m.text).filter((f) => /\brequireAccess\(/.test(f.body)).map((f) => f.name))]));
    const offenders: string[] = [];
    for (const { file, text } of files) {
      for (const m of text.matchAll(/^import \{([^}]*)\} from '([^']+)\.js';/gm)) {
        const operations = publicNames.get(path.basename(m[2]!));
        if (!operations) continue;
        const names = m[1]!.split(',').map((n) => n.trim()).filter((n) => n && !n.startsWith('type '));
        for (const name of names) if (operations.has(name)) offenders.push(`${path.relative(DOMAIN, file)} calls ${name}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('has no bypass flags', () => {
    const flagged = files.filter((f) => /checked\s*:\s*true|\bchecked\?\s*:/.test(f.text)).map((f) => path.relative(DOMAIN, f.file));
    expect(flagged).toEqual([]);
  });
});
