/**
 * The layout's promise, read from the imports: kernel → infra → modules → api → processes, imports
 * point down only (a type import counts: it ties the files just the same), and no import loop
 * between files or between modules. Tests and generated code are left out.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from './support/source-files.js';

const ROOT = path.resolve('src');
const LAYERS = ['kernel', 'infra', 'modules', 'api', 'processes'] as const;

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

/** Each source file with the source files it imports (resolved, `.js` specifiers to their `.ts`). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(ROOT)) {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(IMPORT)]
      .map((m) => path.resolve(path.dirname(file), (m[1] ?? m[2])!).replace(/\.js$/, '.ts'))
      .filter((target) => target.startsWith(ROOT) && !target.includes(`${path.sep}generated${path.sep}`));
    graph.set(
      path.relative(ROOT, file),
      targets.map((t) => path.relative(ROOT, t)),
    );
  }
  return graph;
}

const layerOf = (file: string) => LAYERS.indexOf(file.split(path.sep)[0] as (typeof LAYERS)[number]);
const moduleOf = (file: string) => (file.startsWith(`modules${path.sep}`) ? file.split(path.sep)[1]! : undefined);

/** The strongly connected components of more than one node (Tarjan), i.e. the import loops. */
function loops(graph: Map<string, Set<string>>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    indices.set(node, index);
    low.set(node, index++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indices.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, indices.get(next)!));
    }
    if (low.get(node) === indices.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!indices.has(node)) visit(node);
  return found;
}

describe('the layout', () => {
  const graph = importGraph();

  it('puts every source file in one of the layers', () => {
    expect([...graph.keys()].filter((file) => layerOf(file) === -1)).toEqual([]);
  });

  it('has imports that point down the layers only', () => {
    const upward = [...graph].flatMap(([file, targets]) => targets.filter((t) => layerOf(t) > layerOf(file)).map((t) => `${file} -> ${t}`));
    expect(upward).toEqual([]);
  });

  it('has no import loop between files', () => {
    expect(loops(new Map([...graph].map(([file, targets]) => [file, new Set(targets)])))).toEqual([]);
  });

  it('has no import loop between modules', () => {
    const modules = new Map<string, Set<string>>();
    for (const [file, targets] of graph) {
      const from = moduleOf(file);
      if (!from) continue;
      const edges = modules.get(from) ?? new Set<string>();
      for (const target of targets) {
        const to = moduleOf(target);
        if (to && to !== from) edges.add(to);
      }
      modules.set(from, edges);
    }
    expect(loops(modules)).toEqual([]);
  });
});
