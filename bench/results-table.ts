/**
 * `npx tsx bench/results-table.ts`: bench/results.json (one `npm run bench`) as the Markdown table of
 * docs/benchmarks.md, so the table is always one run's figures, with the machine named. Ratio
 * cases show both ratios (req/s and CPU per request), the one that decided the target in bold. Printed;
 * with `--write`, it replaces the table in docs/benchmarks.md (between the bench-results markers).
 */
import { readFileSync, writeFileSync } from 'node:fs';
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
  if (r.cpuMsPerRequest !== undefined) parts.push(`CPU ${round(r.cpuMsPerRequest)} ms/request`);
  if (r.value !== undefined) parts.push(`${round(r.value)} ${r.unit ?? ''}`.trim());
  // The ratio that decided the target in bold; the other beside it.
  const decidedByCpu = r.decidedBy === 'CPU per request';
  if (r.ratio !== undefined)
    parts.push(`${decidedByCpu ? r.ratio.toFixed(2) : `**${r.ratio.toFixed(2)}**`}× req/s${r.cpuRatio === undefined ? ` of ${r.baseline ?? 'baseline'}` : ''}`);
  if (r.cpuRatio !== undefined) parts.push(`${decidedByCpu ? `**${r.cpuRatio.toFixed(2)}**` : r.cpuRatio.toFixed(2)}× CPU of ${r.baseline ?? 'baseline'}`);
  return parts.join(', ');
}

const escape = (text: string) => text.replace(/\|/g, '\\|');
const lines: string[] = [
  `One run of \`npm run bench\` (${run.startedAt.slice(0, 16).replace('T', ' ')} UTC, ${run.durationSeconds} s): ${machine.cores} × ${machine.cpuModel}, ` +
    `${machine.memoryGb} GB, ${machine.os}, Node ${machine.node}; load average at start ${machine.loadAverageAtStart.map((l) => l.toFixed(1)).join(' / ')}` +
    (run.failed.length ? `; failed: ${run.failed.join(', ')}` : '') +
    '.',
  '',
  '| suite | case | figures | target | met |',
  '|---|---|---|---|---|',
];
for (const r of run.results) {
  const met = r.met === undefined ? '' : r.met ? 'yes' : '**no**';
  lines.push(`| ${r.suite} | ${escape(r.case)}${r.note ? ` (${escape(r.note)})` : ''} | ${escape(figure(r))} | ${escape(r.target ?? '')} | ${met} |`);
}
const table = lines.join('\n');

if (process.argv.includes('--write')) {
  const page = new URL('../docs/benchmarks.md', import.meta.url);
  const text = readFileSync(page, 'utf8');
  const start = text.indexOf('<!-- bench-results:start');
  const end = text.indexOf('<!-- bench-results:end -->');
  if (start < 0 || end < start) throw new Error('docs/benchmarks.md has no bench-results markers');
  const afterStart = text.indexOf('\n', start) + 1;
  writeFileSync(page, `${text.slice(0, afterStart)}${table}\n${text.slice(end)}`);
  console.log('docs/benchmarks.md: results table replaced');
} else {
  console.log(table);
}
