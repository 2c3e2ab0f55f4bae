/**
 * `npm start`: turns on V8's code cache, then runs the all-in-one process (main.ts). A start
 * compiles about 900 module files; with the cache, a start after the first reads their compiled
 * code instead. It lives beside the build (dist/server/.compile-cache), which `npm run build`
 * clears; where it cannot be written (a read-only image) node starts without it. The cache must be
 * on before main.ts's imports are loaded, hence this separate entry.
 */
import nodeModule from 'node:module';
import { fileURLToPath } from 'node:url';

// Node 22.1+ (engines: >=22.12); the project's @types/node is 20's, which does not declare it.
const { enableCompileCache } = nodeModule as typeof nodeModule & { enableCompileCache(directory: string): unknown };
enableCompileCache(fileURLToPath(new URL('../../.compile-cache', import.meta.url)));
await import('./main.js');
