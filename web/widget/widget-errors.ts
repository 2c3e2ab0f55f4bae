/**
 * The errors the widget reports to `onError` (script embed) or shows in the frame (embed.html).
 * The codes are a public contract, documented in docs/integrators.md ("Embedding the credit widget").
 */
export const WIDGET_ERROR_CODES = [
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

export interface WidgetError {
  code: WidgetErrorCode;
  message: string;
}

export const widgetError = (code: WidgetErrorCode, message: string): WidgetError => ({ code, message });
