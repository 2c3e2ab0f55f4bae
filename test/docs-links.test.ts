/**
 * The documentation holds together: every relative link in README.md and docs/ (pages and images)
 * points at a file that exists and, when it names one, at a heading of that file; README stays a
 * landing page (under 15 KB) that links every docs page.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

const files = [join(root, 'README.md'), ...markdownFiles(join(root, 'docs'))];

/** The text outside fenced code blocks and inline code spans. */
function prose(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchors for a file's headings (lower case, punctuation dropped, spaces to hyphens, repeats numbered). */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading = ''] of prose(text).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = heading
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count ? `${base}-${count}` : base);
  }
  for (const [, id = ''] of text.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(id);
  return anchors;
}

function linksOf(text: string): string[] {
  return [...prose(text).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1] ?? '');
}

describe('the documentation', () => {
  it.each(files.map((file) => [relative(root, file), file]))('%s: every relative link resolves', (_name, file) => {
    const text = readFileSync(file, 'utf8');
    const broken: string[] = [];
    for (const link of linksOf(text)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // http:, https:, mailto:
      const [path, anchor] = link.split('#', 2);
      const target = path ? resolve(dirname(file), decodeURI(path)) : file;
      if (!existsSync(target)) {
        broken.push(`${link}: no such file`);
        continue;
      }
      if (anchor && target.endsWith('.md') && !anchorsOf(readFileSync(target, 'utf8')).has(decodeURIComponent(anchor))) {
        broken.push(`${link}: no such heading in ${relative(root, target)}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('README is a landing page under 15 KB that links every docs page', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(Buffer.byteLength(readme)).toBeLessThan(15 * 1024);
    const linked = new Set(linksOf(readme).map((link) => link.split('#')[0]));
    const pages = markdownFiles(join(root, 'docs')).map((file) => relative(root, file));
    expect(pages.filter((page) => !linked.has(page))).toEqual([]);
  });
});
