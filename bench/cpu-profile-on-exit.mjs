/**
 * Loaded with `--import` (through NODE_OPTIONS, which Node 24 allows for --import but not for
 * --cpu-prof): records a V8 CPU profile of the whole process and writes it to BENCH_CPU_PROF_DIR
 * when the process exits, as --cpu-prof would. The in-thread inspector session answers synchronously,
 * so the profile can be taken in the 'exit' handler.
 */
import { Session } from 'node:inspector';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const dir = process.env.BENCH_CPU_PROF_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.start');
  process.on('exit', () => {
    session.post('Profiler.stop', (err, result) => {
      if (err) return;
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, `CPU.${Date.now()}.${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
