/**
 * widget.js, the script embed (spec 4.3): defines the page's only global, `service(command, options)`.
 * A page may call it before this script has loaded through the stub of the docs/integrators.md snippet, which
 * queues the calls in `service.q`; they run here, in order, once loaded.
 */
import { mountCreditWidget } from './credit-widget.js';
import { widgetError, type WidgetError } from './widget-errors.js';

interface InitOptions {
  element?: unknown;
  accessToken?: unknown;
  onError?: unknown;
}

type QueuedCall = ArrayLike<unknown>;
type ServiceFunction = ((command: string, options?: InitOptions) => void) & { q?: QueuedCall[] };

const pageWindow = window as unknown as { service?: ServiceFunction };

// The API is where this script came from (currentScript is set while an async script first runs).
const apiOrigin = new URL((document.currentScript as HTMLScriptElement | null)?.src ?? window.location.href).origin;

function report(onError: unknown, error: WidgetError): void {
  if (typeof onError === 'function') onError(error);
  else console.error(`[credit widget] ${error.code}: ${error.message}`);
}

function init(options: InitOptions | undefined): void {
  const onError = options?.onError;
  if (!options || typeof options.element !== 'string' || options.element.trim() === '') {
    return report(onError, widgetError('INVALID_OPTIONS', 'init needs options.element, a CSS selector'));
  }
  if (typeof options.accessToken !== 'string' || options.accessToken === '') {
    return report(onError, widgetError('INVALID_OPTIONS', 'init needs options.accessToken, a tenant access token'));
  }
  if (onError !== undefined && typeof onError !== 'function') {
    return report(undefined, widgetError('INVALID_OPTIONS', 'options.onError must be a function'));
  }
  let target: Element | null;
  try {
    target = document.querySelector(options.element);
  } catch {
    return report(onError, widgetError('INVALID_OPTIONS', `options.element is not a valid CSS selector: ${options.element}`));
  }
  if (!target) return report(onError, widgetError('ELEMENT_NOT_FOUND', `No element matches ${options.element}`));
  void mountCreditWidget(target, { accessToken: options.accessToken, apiOrigin, onError: (error) => report(onError, error) });
}

const service: ServiceFunction = (command, options) => {
  if (command === 'init') return init(options);
  report(options?.onError, widgetError('INVALID_OPTIONS', `Unknown command ${String(command)}; the widget knows init`));
};

const queued = pageWindow.service?.q ?? [];
pageWindow.service = service;
for (const call of queued) service(call[0] as string, call[1] as InitOptions | undefined);
