/**
 * The widget's theming hooks: CSS custom properties (each with its default, the one place they are
 * declared) that a host page sets on the widget or any ancestor, or passes as the `theme` option,
 * which is also how they reach the frame embed (a host page's CSS cannot cross into a frame).
 * Documented in docs/integrators.md ("Theming").
 */
import { widgetError, type WidgetError } from './widget-errors.js';

const THEME_VARIABLES = {
  '--svc-font-family': 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  '--svc-font-size': '16px',
  '--svc-text-color': '#1b1f24',
  '--svc-muted-color': '#4f5862',
  '--svc-background': '#fff',
  '--svc-panel-background': '#f6f8fa',
  '--svc-border-color': '#d0d7de',
  '--svc-divider-color': '#eaeef2',
  '--svc-accent-color': '#0969da',
  '--svc-track-color': '#d0d7de',
  '--svc-radius': '10px',
  '--svc-error-color': '#cf222e',
  /** The frame embed only: the frame page's own background around the card. */
  '--svc-page-background': '#fff',
} as const;

export type ThemeVariable = keyof typeof THEME_VARIABLES;
export type Theme = Partial<Record<ThemeVariable, string>>;

const MAX_VALUE_LENGTH = 200;

export function isThemeVariable(name: string): name is ThemeVariable {
  return Object.prototype.hasOwnProperty.call(THEME_VARIABLES, name);
}

/** `var(--name, default)`, for the style sheets. */
export function themed(name: ThemeVariable): string {
  return `var(${name}, ${THEME_VARIABLES[name]})`;
}

/** The `theme` option checked: documented names only (a typo is reported, not ignored), string values. */
export function parseTheme(theme: unknown): { ok: true; theme: Theme } | { ok: false; error: WidgetError } {
  if (theme === undefined) return { ok: true, theme: {} };
  if (typeof theme !== 'object' || theme === null || Array.isArray(theme)) {
    return {
      ok: false,
      error: widgetError('INVALID_OPTIONS', 'options.theme must be an object of CSS custom properties, e.g. { "--svc-accent-color": "#005ea5" }'),
    };
  }
  const parsed: Theme = {};
  for (const [name, value] of Object.entries(theme)) {
    if (!isThemeVariable(name)) {
      return {
        ok: false,
        error: widgetError('INVALID_OPTIONS', `options.theme: unknown variable ${name}; the widget reads ${Object.keys(THEME_VARIABLES).join(', ')}`),
      };
    }
    if (typeof value !== 'string' || value.trim() === '' || value.length > MAX_VALUE_LENGTH) {
      return {
        ok: false,
        error: widgetError('INVALID_OPTIONS', `options.theme: ${name} must be a CSS value (a non-empty string of at most ${MAX_VALUE_LENGTH} characters)`),
      };
    }
    parsed[name] = value;
  }
  return { ok: true, theme: parsed };
}

/** Sets the variables on an element's own style, from where they inherit into the widget. */
export function applyTheme(element: HTMLElement, theme: Theme): void {
  for (const [name, value] of Object.entries(theme)) element.style.setProperty(name, value);
}
