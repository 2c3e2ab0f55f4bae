/**
 * The frame embed as widget.js makes it (`mode: 'frame'`): an iframe of embed.html that the host page
 * sizes to the height the frame reports, so it never scrolls inside; the token, locale and theme go
 * in by message, and the frame's ready and error reports come back to `onReady` and `onError`.
 * Messages are read only from that iframe's window and the widget's origin.
 */
import { frameUrl, MESSAGE_SOURCE, protocolMessage, type HostMessage } from './frame-protocol.js';
import type { ResolvedLocale } from './messages.js';
import { isWidgetErrorCode, type ReportedError } from './widget-errors.js';
import type { Theme } from './widget-theme.js';

export interface FrameSettings {
  accessToken: string;
  apiOrigin: string;
  /** The locale as the integrator asked for it: the frame resolves it the same way. */
  requestedLocale: string | undefined;
  locale: ResolvedLocale;
  theme: Theme;
  onError: (error: ReportedError) => void;
  onShown: () => void;
}

/** A height no real report reaches: a message claiming more is not believed. */
const MAX_HEIGHT = 20_000;

export class FrameWidget {
  private readonly frame: HTMLIFrameElement;
  private readonly listener = (event: MessageEvent) => this.receive(event);
  private token: string;
  private listening = false;

  constructor(
    target: Element,
    private readonly settings: FrameSettings,
  ) {
    this.token = settings.accessToken;
    this.frame = document.createElement('iframe');
    this.frame.title = settings.locale.text.title;
    // Until the frame reports its height: the browser's default frame height, never 0 (a frame with
    // no area may be throttled, and would then never report).
    this.frame.style.cssText = 'display:block;width:100%;height:150px;border:0;overflow:hidden';
    window.addEventListener('message', this.listener);
    this.frame.src = frameUrl(settings.apiOrigin, window.location.origin);
    target.append(this.frame);
  }

  setToken(token: string): void {
    this.token = token;
    // Before the frame listens, the token goes with `init`.
    if (this.listening) this.post({ source: MESSAGE_SOURCE, type: 'setToken', accessToken: token });
  }

  destroy(): void {
    window.removeEventListener('message', this.listener);
    this.frame.remove();
  }

  private receive(event: MessageEvent): void {
    if (event.origin !== this.settings.apiOrigin || event.source === null || event.source !== this.frame.contentWindow) return;
    const message = protocolMessage(event.data);
    if (!message) return;
    switch (message.type) {
      case 'loaded':
        this.listening = true;
        this.post({ source: MESSAGE_SOURCE, type: 'init', accessToken: this.token, locale: this.settings.requestedLocale, theme: this.settings.theme });
        return;
      case 'resize': {
        const height = message.height;
        if (typeof height === 'number' && Number.isFinite(height) && height >= 0 && height <= MAX_HEIGHT) this.frame.style.height = `${Math.ceil(height)}px`;
        return;
      }
      case 'ready':
        this.settings.onShown();
        return;
      case 'error': {
        const error = message.error as Partial<ReportedError> | undefined;
        if (!error || !isWidgetErrorCode(error.code)) return;
        this.settings.onError({
          code: error.code,
          message: typeof error.message === 'string' ? error.message : '',
          // Our own wording for the code, not text taken from a message.
          userMessage: this.settings.locale.text.errors[error.code],
        });
        return;
      }
    }
  }

  private post(message: HostMessage): void {
    this.frame.contentWindow?.postMessage(message, this.settings.apiOrigin);
  }
}
