/** Small page helpers shared by the operators' dashboard and the lender console. */
import { html, type TemplateResult } from 'lit';

export function formValues(form: HTMLFormElement): Record<string, string> {
  return Object.fromEntries([...new FormData(form).entries()].map(([k, v]) => [k, String(v)]));
}

/**
 * A URL with a line-break opportunity (<wbr>) after each separator (/ ? & =), so a long URL wraps
 * between its parts on a narrow screen rather than in the middle of a word.
 */
export function urlWithBreaks(url: string): TemplateResult {
  const parts = url.split(/(?<=[/?&=])/);
  return html`${parts.map((part, i) => (i === 0 ? part : html`<wbr>${part}`))}`;
}

/** A panel opened from a button takes the keyboard focus (its heading), so a keyboard user lands on it. */
export function focusAfterRender(id: string): void {
  requestAnimationFrame(() => document.getElementById(id)?.focus());
}

/** An enum value as words: LIMITED_COMPANY → "limited company". */
export const enumLabel = (value: string) => value.replace(/_/g, ' ').toLowerCase();
