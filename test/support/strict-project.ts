/**
 * A scratch TypeScript project as a careful integrator or lender sets one up (ES modules, strict,
 * no unchecked index access), holding one program: what the typed-client tests compile and run to
 * show that generated types need no cast.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { repositoryPath } from '../../src/kernel/repository-root.js';

const run = promisify(execFile);
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/** Writes package.json and tsconfig.json for `program` (a file name in `dir`), compiled to `out/`. */
export async function writeStrictProject(dir: string, name: string, program: string): Promise<void> {
  await writeFile(path.join(dir, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }));
  await writeFile(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noUncheckedIndexedAccess: true,
        skipLibCheck: true,
        outDir: 'out',
        types: ['node'],
        typeRoots: [repositoryPath('node_modules', '@types')],
      },
      files: [program],
    }),
  );
}

/** Compiles the project: the compiler's complaints, empty when it compiled cleanly. */
export async function compileStrictProject(dir: string): Promise<string> {
  const compiled = await run(process.execPath, [tsc, '-p', dir]).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? String(err), failed: true }));
  return 'failed' in compiled ? compiled.stdout : '';
}
