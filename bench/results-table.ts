/**
 * `npx tsx bench/results-table.ts`: bench/results.json (one `npm run bench`) as the README's
 * Markdown table, so the table is always one run's figures, with the machine named.
 */
import { readFileSync } from 'node:fs';
import type { BenchResult } from './results.js';

interface RunFile {
  startedAt: string;
  durationSeconds: number;
  machine: { cpuModel: string; cores: number; memoryGb: number; os: string; node: string; loadAverageAtStart: number[] };
  failed: string[];
  results: BenchResult[];
}

const run = JSON.parse(readFileSync(new URL('./results.json', import.meta.url), 'utf8')) as RunFile;
const { machine } = run;
const round = (n: number) => (n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2));

function figure(r: BenchResult): string {
  const parts: string[] = [];
  if (r.perSecond !== undefined) parts.push(`${round(r.perSecond)}/s`);
  if (r.p50Ms !== undefined) parts.push(`p50 ${round(r.p50Ms)} ms`);
  if (r.p99Ms !== undefined) parts.push(`p99 ${round(r.p99Ms)} ms`);
  if (r.value !== undefined) parts.push(`${round(r.value)} ${r.unit ?? ''}`.trim());
  if (r.ratio !== undefined) parts.push(`**${r.ratio.toFixed(2)}×** ${r.baseline ?? 'baseline'}`);
  return parts.join(', ');
}

const escape = (text: string) => text.replace(/\|/g, '\\|');
console.log(
  `One run of \`npm run bench\` (${run.startedAt.slice(0, 16).replace('T', ' ')} UTC, ${run.durationSeconds} s): ${machine.cores} × ${machine.cpuModel}, ` +
    `${machine.memoryGb} GB, ${machine.os}, Node ${machine.node}; load average at start ${machine.loadAverageAtStart.map((l) => l.toFixed(1)).join(' / ')}` +
    (run.failed.length ? `; failed: ${run.failed.join(', ')}` : '') +
    '.\n',
);
console.log('| suite | case | figures | target | met |');
console.log('|---|---|---|---|---|');
for (const r of run.results) {
  const met = r.met === undefined ? '' : r.met ? 'yes' : '**no**';
  console.log(`| ${r.suite} | ${escape(r.case)}${r.note ? ` (${escape(r.note)})` : ''} | ${escape(figure(r))} | ${escape(r.target ?? '')} | ${met} |`);
}
