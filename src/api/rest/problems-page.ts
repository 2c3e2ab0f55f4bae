/**
 * GET /docs/problems: the page every problem's `type` points to (`/docs/problems#<code>`), one entry
 * per error code with its status, meaning and what to do, generated from the one error vocabulary
 * (src/kernel/errors.ts), as is the table of docs/api.md (`problemsMarkdownTable`, kept in step by
 * test/openapi-problems.test.ts). Nothing here is written twice.
 */
import { STATUS_CODES } from 'node:http';
import { ERROR_CODES, ERROR_VOCABULARY } from '../../kernel/errors.js';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** The vocabulary's texts mark code with backticks. */
const inlineHtml = (text: string) => escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');

export function problemsPage(): string {
  const entries = ERROR_CODES.map((code) => {
    const { status, meaning, whatToDo } = ERROR_VOCABULARY[code];
    return `<section id="${code}" aria-labelledby="${code}-title">
<h2 id="${code}-title"><code>${code}</code> <span class="status">${status} ${escapeHtml(STATUS_CODES[status] ?? '')}</span></h2>
<dl>
<dt>What it means</dt><dd>${inlineHtml(meaning)}</dd>
<dt>What to do</dt><dd>${inlineHtml(whatToDo)}</dd>
</dl>
</section>`;
  }).join('\n');
  return `<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Problem types: funding gateway API</title>
<style>
body { font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; max-width: 48rem; margin: 0 auto; padding: 1rem; line-height: 1.5; color: #1a1a1a; background: #fff; }
code { font-family: ui-monospace, 'DejaVu Sans Mono', monospace; background: #f2f2f2; padding: 0 .2em; }
section { border-top: 1px solid #ccc; padding-top: .5rem; }
section:target { outline: 3px solid #0b57d0; outline-offset: 4px; }
.status { font-weight: normal; color: #444; }
dt { font-weight: bold; }
dd { margin: 0 0 .75rem 0; }
a { color: #0b57d0; }
</style>
</head>
<body>
<main>
<h1>Problem types</h1>
<p>Every failure of the REST API is answered as RFC 9457 problem details (<code>application/problem+json</code>).
Its <code>type</code> is <code>/docs/problems#&lt;code&gt;</code>: the entry of its <code>code</code> below.
<code>errors</code> lists the failing fields by JSON pointer, and <code>instance</code> (<code>urn:request:&lt;X-Request-Id&gt;</code>) finds the request's log lines.
GraphQL errors carry the same codes in <code>extensions.code</code>. See also the <a href="/docs">API reference</a>.</p>
<nav aria-label="Codes"><ul>
${ERROR_CODES.map((code) => `<li><a href="#${code}"><code>${code}</code></a> (${ERROR_VOCABULARY[code].status})</li>`).join('\n')}
</ul></nav>
${entries}
</main>
</body>
</html>`;
}

/** The table of docs/api.md ("Errors"), from the same vocabulary. */
export function problemsMarkdownTable(): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  return [
    '| status | code | what it means | what to do |',
    '|---|---|---|---|',
    ...ERROR_CODES.map((code) => {
      const { status, meaning, whatToDo } = ERROR_VOCABULARY[code];
      return `| ${status} | \`${code}\` | ${cell(meaning)} | ${cell(whatToDo)} |`;
    }),
  ].join('\n');
}
