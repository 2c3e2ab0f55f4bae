/**
 * The messages between widget.js on the host page and embed.html in its frame (the frame embed made
 * by `service('init', { mode: 'frame' })`). Each side posts only to the other's origin and reads
 * only messages from the other's window and origin: the host from the frame it made and the widget's
 * origin, the frame from its parent and the origin the host named in the frame's address (`parent`).
 */
import type { ReportedError } from './widget-errors.js';
import type { Theme } from './widget-theme.js';

export const MESSAGE_SOURCE = 'svc-credit-widget';

/** From the frame: its script is listening (once, at start), its content height, its state. */
export type FrameMessage =
  | { source: typeof MESSAGE_SOURCE; type: 'loaded' }
  | { source: typeof MESSAGE_SOURCE; type: 'resize'; height: number }
  | { source: typeof MESSAGE_SOURCE; type: 'ready' }
  | { source: typeof MESSAGE_SOURCE; type: 'error'; error: ReportedError };

/** From the host: the widget's settings (the token never travels in the frame's address), a new token. */
export type HostMessage =
  | { source: typeof MESSAGE_SOURCE; type: 'init'; accessToken: string; locale?: string; theme: Theme }
  | { source: typeof MESSAGE_SOURCE; type: 'setToken'; accessToken: string };

/** A message of this protocol: an object carrying our source mark and a string type. */
export function protocolMessage(data: unknown): { type: string; [field: string]: unknown } | null {
  if (typeof data !== 'object' || data === null) return null;
  const message = data as { source?: unknown; type?: unknown };
  return message.source === MESSAGE_SOURCE && typeof message.type === 'string' ? (data as { type: string }) : null;
}

/** The frame's address for a host page of `hostOrigin`. */
const EMBED_PATH = '/app/ui/widget/embed.html';
export function frameUrl(apiOrigin: string, hostOrigin: string): string {
  const url = new URL(EMBED_PATH, apiOrigin);
  url.searchParams.set('parent', hostOrigin);
  return url.href;
}
