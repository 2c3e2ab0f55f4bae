/**
 * embed.html's script (the frame embed, spec 4.3). Two ways in:
 * - written by hand: `embed.html?accessToken=…` (and optionally `locale=…` and theme variables as
 *   `--svc-…=…` parameters). The token is taken out of the address bar at once (history,
 *   bookmarks, screenshots); errors show in the frame, in plain words, and in its console.
 * - made by widget.js (`mode: 'frame'`): `embed.html?parent=<host origin>`. The frame tells its
 *   parent it listens, takes the token, locale and theme from the parent's `init` (and new tokens
 *   from `setToken`), and posts its content height (so the host sizes the frame and nothing scrolls
 *   inside), `ready` and errors back, to the parent's origin only.
 */
import { CreditWidget } from './credit-widget.js';
import { MESSAGE_SOURCE, protocolMessage, type FrameMessage } from './frame-protocol.js';
import { DEFAULT_LOCALE, resolveLocale, type ResolvedLocale } from './messages.js';
import { widgetError, type ReportedError, type WidgetError } from './widget-errors.js';
import { applyTheme, isThemeVariable, parseTheme, themed, type Theme } from './widget-theme.js';

/** The frame page's own looks (the card styles itself), themed by the same variables. */
const FRAME_CSS = `
body { margin: 0; padding: 8px; background: ${themed('--svc-page-background')}; color: ${themed('--svc-text-color')};
  font-family: ${themed('--svc-font-family')}; font-size: ${themed('--svc-font-size')}; line-height: 1.45; }
.problem { margin: 0; padding: 12px; background: ${themed('--svc-background')}; border: 1px solid ${themed('--svc-error-color')};
  border-radius: ${themed('--svc-radius')}; }
`;

const url = new URL(window.location.href);
const queryToken = url.searchParams.get('accessToken');
url.searchParams.delete('accessToken');
history.replaceState(history.state, '', url.pathname + url.search + url.hash);

const target = document.getElementById('credit-widget')!;
const problem = document.getElementById('problem')!;
const heading = document.querySelector('h1');
const sheet = new CSSStyleSheet();
sheet.replaceSync(FRAME_CSS);
document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];

let locale: ResolvedLocale = resolveLocale(undefined);
let widget: CreditWidget | undefined;
/** The host page's origin when widget.js made this frame; messages go there only. */
let parentOrigin: string | null = null;

function post(message: FrameMessage): void {
  if (parentOrigin) window.parent.postMessage(message, parentOrigin);
}

function showError(error: ReportedError): void {
  problem.textContent = error.userMessage;
  problem.dataset.code = error.code;
  problem.hidden = false;
  // The developer's detail: in this frame's console, and to the host's onError when it made the frame.
  console.error(`[credit widget] ${error.code}: ${error.message}`);
  postHeight();
  post({ source: MESSAGE_SOURCE, type: 'error', error });
}

const fail = (error: WidgetError) => showError({ ...error, userMessage: locale.text.errors[error.code] });

let postedHeight = -1;
/**
 * Posted by the ResizeObserver, and also at once (a forced layout) when the report or a message
 * appears: a frame out of view may have its rendering, and so its observers, throttled.
 */
function postHeight(): void {
  // The body's border box is the content (html is as tall as the frame, so it never shrinks).
  const height = Math.ceil(document.body.getBoundingClientRect().height);
  if (height === postedHeight) return;
  postedHeight = height;
  post({ source: MESSAGE_SOURCE, type: 'resize', height });
}

function start(accessToken: string, requestedLocale: string | undefined, theme: Theme): void {
  try {
    locale = resolveLocale(requestedLocale);
  } catch {
    return fail(widgetError('INVALID_OPTIONS', `locale is not a BCP 47 language tag: ${String(requestedLocale)}`));
  }
  if (locale.fellBack) console.warn(`[credit widget] no texts in ${String(requestedLocale)}: showing ${DEFAULT_LOCALE}`);
  document.documentElement.lang = locale.language;
  document.title = locale.text.title;
  if (heading) heading.textContent = locale.text.title;
  applyTheme(document.documentElement, theme);
  widget = new CreditWidget(target, {
    accessToken,
    apiOrigin: window.location.origin,
    locale,
    theme: {},
    onError: showError,
    onShown: () => {
      problem.hidden = true;
      // The height first, so that the host has sized the frame when it hears `ready`.
      postHeight();
      post({ source: MESSAGE_SOURCE, type: 'ready' });
    },
  });
}

/** The theme of a hand-written frame: each documented variable as a query parameter of its name. */
function themeFromQuery(): Theme {
  const theme: Theme = {};
  for (const [name, value] of url.searchParams) if (isThemeVariable(name)) theme[name] = value;
  return theme;
}

/**
 * The parent's origin as the address names it, believed only when it is an origin and, where the
 * browser says who the parent is (location.ancestorOrigins), it is that one. A lie elsewhere gains
 * nothing: messages to a named origin reach only a parent of that origin.
 */
function trustedParent(named: string): string | null {
  let origin: string;
  try {
    origin = new URL(named).origin;
  } catch {
    return null;
  }
  if (origin !== named || origin === 'null' || window.parent === window) return null;
  const ancestors = window.location.ancestorOrigins;
  if (ancestors && ancestors.length > 0 && ancestors[0] !== origin) return null;
  return origin;
}

const namedParent = url.searchParams.get('parent');
if (namedParent !== null) {
  parentOrigin = trustedParent(namedParent);
  if (!parentOrigin) {
    fail(widgetError('INVALID_OPTIONS', `parent=${namedParent} is not the origin of the page that framed this one`));
  } else {
    window.addEventListener('message', (event) => {
      if (event.source !== window.parent || event.origin !== parentOrigin) return;
      const message = protocolMessage(event.data);
      if (message?.type === 'init' && !widget) {
        const theme = parseTheme(message.theme);
        if (typeof message.accessToken !== 'string' || message.accessToken === '')
          return fail(widgetError('INVALID_OPTIONS', 'init needs a tenant access token'));
        if (message.locale !== undefined && typeof message.locale !== 'string')
          return fail(widgetError('INVALID_OPTIONS', 'locale must be a BCP 47 language tag'));
        if (!theme.ok) return fail(theme.error);
        start(message.accessToken, message.locale, theme.theme);
      } else if (message?.type === 'setToken' && widget && typeof message.accessToken === 'string' && message.accessToken !== '') {
        widget.setToken(message.accessToken);
      }
    });
    new ResizeObserver(postHeight).observe(document.body);
    post({ source: MESSAGE_SOURCE, type: 'loaded' });
  }
} else if (!queryToken) {
  fail(widgetError('INVALID_OPTIONS', 'Open this page with ?accessToken=<tenant access token>'));
} else {
  start(queryToken, url.searchParams.get('locale') ?? undefined, themeFromQuery());
}
