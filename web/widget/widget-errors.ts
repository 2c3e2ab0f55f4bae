/**
 * The errors the widget reports to `onError` (and the console), and shows in the frame in plain
 * words. The codes are a public contract, documented in docs/integrators.md ("Embedding the credit
 * widget"): `message` is the developer's detail, `userMessage` what an end user may read.
 */
const WIDGET_ERROR_CODES = [
  'INVALID_OPTIONS',
  'ELEMENT_NOT_FOUND',
  'WRONG_TOKEN_KIND',
  'TOKEN_INVALID',
  'TOKEN_EXPIRED',
  'NO_PROFILE',
  'NOT_ELIGIBLE',
  'NETWORK_ERROR',
  'SERVER_ERROR',
  'UNEXPECTED_RESPONSE',
] as const;

export type WidgetErrorCode = (typeof WIDGET_ERROR_CODES)[number];

/** A failure as the widget's code finds it: a stable code and the developer's detail. */
export interface WidgetError {
  code: WidgetErrorCode;
  message: string;
}

/** What `onError` receives: the failure, with the end user's wording in the widget's locale. */
export interface ReportedError extends WidgetError {
  userMessage: string;
}

export const widgetError = (code: WidgetErrorCode, message: string): WidgetError => ({ code, message });

export function isWidgetErrorCode(value: unknown): value is WidgetErrorCode {
  return typeof value === 'string' && (WIDGET_ERROR_CODES as readonly string[]).includes(value);
}
