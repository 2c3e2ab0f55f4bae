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
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
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
    const axe = (globalThis as unknown as { axe: { run: (ctx: unknown, options: unknown) => Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[] }> }> }> } }).axe;
    const result = await axe.run(selector ?? document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => JSON.stringify(n.target)) }));
  }, context);
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
