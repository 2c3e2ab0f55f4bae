/**
 * embed.html's script (the frame embed, spec 4.3): the token arrives in the query string, is taken
 * out of the address bar at once (history, bookmarks, screenshots), and errors show in the frame.
 */
import { mountCreditWidget } from './credit-widget.js';
import { widgetError } from './widget-errors.js';

const url = new URL(window.location.href);
const accessToken = url.searchParams.get('accessToken');
url.searchParams.delete('accessToken');
history.replaceState(history.state, '', url.pathname + url.search + url.hash);

const target = document.getElementById('credit-widget')!;
const problem = document.getElementById('problem')!;

function showError(error: { code: string; message: string }): void {
  problem.textContent = error.message;
  problem.dataset.code = error.code;
  problem.hidden = false;
}

if (!accessToken) showError(widgetError('INVALID_OPTIONS', 'Open this page with ?accessToken=<tenant access token>'));
else void mountCreditWidget(target, { accessToken, apiOrigin: window.location.origin, onError: showError });
