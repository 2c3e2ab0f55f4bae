/**
 * Debian's Chromium driven by playwright-core, for every web page the project serves, and axe-core run
 * inside the page (its source injected from node_modules: machines are offline).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The flags keep a headless Chromium from reaching for Google's hosts on an offline machine. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** axe-core's serious and critical violations on the page as it stands (shadow roots included). */
export async function seriousAccessibilityViolations(page: Page, context?: string): Promise<AxeViolation[]> {
  // Evaluated over the DevTools protocol rather than as a <script>: the page's own CSP stays in force.
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async (selector) => {
    const axe = (
      globalThis as unknown as {
        axe: {
          run: (
            ctx: unknown,
            options: unknown,
          ) => Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[] }> }> }>;
        };
      }
    ).axe;
    const result = await axe.run(selector ?? document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => JSON.stringify(n.target)) }));
  }, context);
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/**
 * Resolves once the page shows, each whole inside the viewport, a leaf element whose text is
 * `heading` and at least `atLeast` leaf elements whose texts are among `names`: checked in the page
 * at every frame, so a benchmark can time it to the frame (bench/docs-first-screen.ts) and a test
 * can wait for it (test/api-docs.test.ts). A function rather than a string: pages' CSP refuses eval.
 */
export async function untilNamedOnScreen(page: Page, heading: string, names: readonly string[], atLeast: number): Promise<void> {
  await page.evaluate(
    // No named functions inside: the page has no copy of tsx's name-keeping helper.
    async (wanted) => {
      const named = new Set(wanted.names);
      for (;;) {
        const seen = new Set<string>();
        let headingSeen = false;
        for (const element of Array.from(document.querySelectorAll<HTMLElement>('body *'))) {
          if (element.children.length > 0) continue;
          const text = element.textContent?.trim() ?? '';
          if (text !== wanted.heading && !named.has(text)) continue;
          const box = element.getBoundingClientRect();
          if (!(box.height > 0 && box.top >= 0 && box.bottom <= innerHeight && box.left >= 0 && box.right <= innerWidth)) continue;
          if (text === wanted.heading) headingSeen = true;
          else seen.add(text);
        }
        if (headingSeen && seen.size >= wanted.atLeast) return;
        await new Promise((frame) => requestAnimationFrame(frame));
      }
    },
    { heading, names: [...names], atLeast },
  );
}
