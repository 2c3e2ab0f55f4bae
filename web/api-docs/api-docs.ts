/**
 * Starts the reference page: Scalar's API reference (loaded just before, from our assets) on
 * /openapi.json, in a light theme whose colours meet WCAG AA contrast, with the few accessibility
 * gaps of the renderer's markup closed as it renders (unnamed icon buttons, an unfocusable scroll region).
 */
interface ScalarGlobal {
  createApiReference(selector: string, configuration: Record<string, unknown>): unknown;
}

/** Text colours at 4.5:1 or better on the theme's light backgrounds. */
const ACCESSIBLE_COLOURS = `
.light-mode, .light-mode .scalar-api-reference, .scalar-api-reference {
  --scalar-color-1: #111111;
  --scalar-color-2: #3a3a3a;
  --scalar-color-3: #4a4a4a;
  --scalar-color-accent: #0b57d0;
  --scalar-color-green: #116329;
  --scalar-color-blue: #0550ae;
  --scalar-color-orange: #8a4600;
  --scalar-color-yellow: #7a5a00;
  --scalar-color-red: #a40e26;
  --scalar-color-purple: #6639ba;
  --scalar-sidebar-color-1: #111111;
  --scalar-sidebar-color-2: #3a3a3a;
  --scalar-sidebar-color-active: #0b57d0;
  --scalar-sidebar-search-color: #3a3a3a;
}
:root, .scalar-app, .scalar-api-reference {
  /* System fonts: the renderer's own web fonts live on another host, unreachable offline. */
  --scalar-font: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif;
  --scalar-font-code: ui-monospace, 'DejaVu Sans Mono', monospace;
}
`;

function closeAccessibilityGaps(root: ParentNode): void {
  for (const button of Array.from(root.querySelectorAll('button'))) {
    if (button.getAttribute('aria-label') || button.getAttribute('title')) continue;
    // Copy buttons hold only an icon and a label hidden from assistive technology.
    if (button.className.toString().includes('copy')) button.setAttribute('aria-label', 'Copy to clipboard');
    else if (!button.textContent?.trim()) button.setAttribute('aria-label', 'Toggle');
  }
  for (const region of Array.from(root.querySelectorAll<HTMLElement>('.endpoints'))) {
    if (!region.hasAttribute('tabindex')) region.tabIndex = 0;
  }
}

const scalar = (window as unknown as { Scalar?: ScalarGlobal }).Scalar;
if (!scalar) throw new Error('the API reference renderer did not load');
// Not "#api-reference": Scalar's standalone script mounts a renderer of its own on an element of that
// id (its HTML embed), which would be a second, never-loading reference above ours.
scalar.createApiReference('#reference', {
  url: '/openapi.json',
  // Offline: no fonts, proxy or telemetry from elsewhere; "try it" calls this server directly.
  withDefaultFonts: false,
  hideClientButton: true,
  // Its toolbar (Configure, Share, Deploy) drives Scalar's hosted services, which an offline reader cannot reach.
  showDeveloperTools: 'never',
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  forceDarkModeState: 'light',
  hideDarkModeToggle: true,
  customCss: ACCESSIBLE_COLOURS,
});
// The whole body: the renderer also opens parts (dialogs, the request panel) outside its element.
closeAccessibilityGaps(document.body);
new MutationObserver(() => closeAccessibilityGaps(document.body)).observe(document.body, { childList: true, subtree: true });
