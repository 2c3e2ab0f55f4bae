/**
 * widget.js, the script embed (spec 4.3): defines the page's only global, `service(command, …)`.
 * A page may call it before this script has loaded through the stub of the docs/integrators.md snippet, which
 * queues the calls in `service.q`; they run here, in order, once loaded.
 *
 * Commands: `init` (options), `setToken` (a tenant token, for every widget on the page), `destroy`
 * (every widget, its listeners and its frame). A page shows one tenant, so the commands after
 * `init` address all of its widgets.
 */
import { CreditWidget } from './credit-widget.js';
import { FrameWidget } from './frame-host.js';
import { DEFAULT_LOCALE, resolveLocale, type Catalogue, type ResolvedLocale } from './messages.js';
import { widgetError, type ReportedError, type WidgetError } from './widget-errors.js';
import { parseTheme } from './widget-theme.js';

interface InitOptions {
  element?: unknown;
  accessToken?: unknown;
  onError?: unknown;
  onReady?: unknown;
  locale?: unknown;
  theme?: unknown;
  mode?: unknown;
}

type QueuedCall = ArrayLike<unknown>;
type ServiceFunction = ((command: string, argument?: unknown) => void) & { q?: QueuedCall[] };

interface MountedWidget {
  setToken(token: string): void;
  destroy(): void;
  readonly onError: ((error: ReportedError) => void) | undefined;
  readonly text: Catalogue;
}

const pageWindow = window as unknown as { service?: ServiceFunction };

// The API is where this script came from (currentScript is set while an async script first runs).
const apiOrigin = new URL((document.currentScript as HTMLScriptElement | null)?.src ?? window.location.href).origin;

const DEFAULT_TEXT = resolveLocale(undefined).text;
const widgets = new Map<Element, MountedWidget>();

/** An integrator's callback throwing must not break the widget; the error still surfaces, on its own. */
function callSafely(callback: () => void): void {
  try {
    callback();
  } catch (err) {
    setTimeout(() => {
      throw err;
    });
  }
}

/** To `onError` when the page gave one, else to the console: never silently dropped. */
function report(onError: unknown, error: WidgetError, text: Catalogue = DEFAULT_TEXT): void {
  const reported: ReportedError = { ...error, userMessage: text.errors[error.code] };
  if (typeof onError === 'function') callSafely(() => (onError as (e: ReportedError) => void)(reported));
  else console.error(`[credit widget] ${error.code}: ${error.message}`);
}

function init(options: InitOptions | undefined): void {
  const onError = options?.onError;
  if (onError !== undefined && typeof onError !== 'function') {
    return report(undefined, widgetError('INVALID_OPTIONS', 'options.onError must be a function'));
  }
  if (!options || typeof options.element !== 'string' || options.element.trim() === '') {
    return report(onError, widgetError('INVALID_OPTIONS', 'init needs options.element, a CSS selector'));
  }
  if (typeof options.accessToken !== 'string' || options.accessToken === '') {
    return report(onError, widgetError('INVALID_OPTIONS', 'init needs options.accessToken, a tenant access token'));
  }
  const onReady = options.onReady;
  if (onReady !== undefined && typeof onReady !== 'function') {
    return report(onError, widgetError('INVALID_OPTIONS', 'options.onReady must be a function'));
  }
  const mode = options.mode ?? 'inline';
  if (mode !== 'inline' && mode !== 'frame') {
    return report(onError, widgetError('INVALID_OPTIONS', `options.mode must be 'inline' (the default) or 'frame', not ${String(mode)}`));
  }
  if (options.locale !== undefined && typeof options.locale !== 'string') {
    return report(onError, widgetError('INVALID_OPTIONS', `options.locale must be a BCP 47 language tag such as '${DEFAULT_LOCALE}'`));
  }
  let locale: ResolvedLocale;
  try {
    locale = resolveLocale(options.locale);
  } catch {
    return report(onError, widgetError('INVALID_OPTIONS', `options.locale is not a BCP 47 language tag: ${String(options.locale)}`));
  }
  if (locale.fellBack) console.warn(`[credit widget] no texts in ${String(options.locale)}: showing ${DEFAULT_LOCALE}`);
  const theme = parseTheme(options.theme);
  if (!theme.ok) return report(onError, theme.error, locale.text);
  let target: Element | null;
  try {
    target = document.querySelector(options.element);
  } catch {
    return report(onError, widgetError('INVALID_OPTIONS', `options.element is not a valid CSS selector: ${options.element}`), locale.text);
  }
  if (!target) return report(onError, widgetError('ELEMENT_NOT_FOUND', `No element matches ${options.element}`), locale.text);

  widgets.get(target)?.destroy();
  let ready = false;
  const callbacks = {
    onError: (error: ReportedError) => report(onError, error, locale.text),
    onShown: () => {
      if (ready) return;
      ready = true;
      if (typeof onReady === 'function') callSafely(() => onReady());
    },
  };
  const settings = { accessToken: options.accessToken, apiOrigin, locale, theme: theme.theme, ...callbacks };
  const widget =
    mode === 'frame' ? new FrameWidget(target, { ...settings, requestedLocale: options.locale as string | undefined }) : new CreditWidget(target, settings);
  const mounted: MountedWidget = {
    setToken: (token) => widget.setToken(token),
    destroy: () => {
      widget.destroy();
      if (widgets.get(target) === mounted) widgets.delete(target);
    },
    onError: typeof onError === 'function' ? (onError as (e: ReportedError) => void) : undefined,
    text: locale.text,
  };
  widgets.set(target, mounted);
}

function setToken(token: unknown): void {
  if (widgets.size === 0) return report(undefined, widgetError('INVALID_OPTIONS', 'setToken: there is no widget on the page; call init first'));
  for (const widget of widgets.values()) {
    if (typeof token !== 'string' || token === '')
      report(widget.onError, widgetError('INVALID_OPTIONS', 'setToken needs a tenant access token (a non-empty string)'), widget.text);
    else widget.setToken(token);
  }
}

function destroy(): void {
  for (const widget of [...widgets.values()]) widget.destroy();
}

const service: ServiceFunction = (command, argument) => {
  if (command === 'init') return init(argument as InitOptions | undefined);
  if (command === 'setToken') return setToken(argument);
  if (command === 'destroy') return destroy();
  const onError = (argument as InitOptions | undefined)?.onError;
  report(onError, widgetError('INVALID_OPTIONS', `Unknown command ${String(command)}; the widget knows init, setToken and destroy`));
};

const queued = pageWindow.service?.q ?? [];
pageWindow.service = service;
for (const call of queued) service(call[0] as string, call[1]);
