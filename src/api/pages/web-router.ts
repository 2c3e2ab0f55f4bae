/**
 * Pages we serve to people rather than programs (funding search, application continue, by signed
 * links), the lender images they show, and the embeddable credit widget with its CORS policy.
 */
import express, { type Request, type Response, type Router } from 'express';
import { continueWithChoice, openContinuePage } from '../../modules/business-applications/business-application-service.js';
import { REPLACE_POINTER } from '../../modules/matching/review-selection.js';
import { AppError, HTTP_STATUS_BY_CODE } from '../../kernel/errors.js';
import { lenderImage } from '../../modules/lenders/lender-logos.js';
import { openFundingSearchPage } from '../../modules/matching/funding-search-links.js';
import type { EdgeServices } from '../http/edge-services.js';
import { requestIdOf } from '../../infra/request-id.js';
import { renderContinuePage, renderFundingSearchPage, renderLinkProblemPage, type LinkProblem } from './funding-search-page.js';
import { readWebBundle } from './web-bundles.js';
import { widgetRouter } from './widget-routes.js';

export function webRouter(runtime: EdgeServices): Router {
  const router = express.Router();
  router.use(widgetRouter(runtime.config, runtime.logger));
  router.get('/app/funding-search/:uuid', async (req, res) => {
    res.set(PAGE_HEADERS);
    try {
      const page = await openFundingSearchPage(runtime.contextFor(undefined, requestIdOf(res)), req.params.uuid, req.query.token);
      res.type('html').send(renderFundingSearchPage(page));
    } catch (err) {
      sendPageProblem(runtime, res, err);
    }
  });
  const continuePage = async (req: Request, res: Response, problem?: AppError) => {
    const page = await openContinuePage(runtime.contextFor(undefined, requestIdOf(res)), req.params.id, req.query.token);
    const action = `${req.baseUrl}${req.path}?token=${encodeURIComponent(String(req.query.token))}`;
    const posted = (req.body ?? {}) as { choice?: unknown };
    const chosen = problem ? [posted.choice ?? []].flat().filter((v): v is string => typeof v === 'string') : [];
    const askReplace = problem?.code === 'CONFLICT' && problem.fields.some((f) => f.pointer === REPLACE_POINTER);
    const html = renderContinuePage(page, {
      formAction: action,
      changeUrl: `${action}&change=1`,
      problem: problem && choiceProblemText(problem),
      chosen,
      replacing: req.method === 'GET' && req.query.change === '1',
      askReplace,
    });
    res
      .status(problem ? HTTP_STATUS_BY_CODE[problem.code] : 200)
      .type('html')
      .send(html);
  };
  router.get('/app/applications/:id/continue', async (req, res) => {
    res.set(PAGE_HEADERS);
    try {
      await continuePage(req, res);
    } catch (err) {
      sendPageProblem(runtime, res, err);
    }
  });
  // The continue page's own script (tick limit), built from web/continue/ like every bundle: no inline script.
  router.get('/app/continue-page.js', async (_req, res) => {
    res.set({ 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' });
    res.type('application/javascript').send(await readWebBundle('continue-page.js'));
  });
  // The client's choice: queued for review, then back to the page (POST-redirect-GET), or the page again saying what was wrong.
  router.post('/app/applications/:id/continue', express.urlencoded({ extended: false, limit: '16kb' }), async (req, res) => {
    res.set(PAGE_HEADERS);
    try {
      await continueWithChoice(runtime.contextFor(undefined, requestIdOf(res)), req.params.id, req.query.token, req.body);
      res.redirect(303, `${req.path}?token=${encodeURIComponent(String(req.query.token))}`);
    } catch (err) {
      try {
        if (!(err instanceof AppError) || !['BAD_REQUEST', 'UNPROCESSABLE', 'CONFLICT'].includes(err.code)) throw err;
        await continuePage(req, res, err);
      } catch (pageErr) {
        sendPageProblem(runtime, res, pageErr);
      }
    }
  });
  router.get(/^\/static\/lenders\/([a-z0-9-]+\.svg)$/, async (req, res) => {
    try {
      const svg = await lenderImage(runtime.contextFor(undefined, requestIdOf(res)), (req.params as Record<string, string>)[0]!);
      res.set({
        'Cache-Control': 'public, max-age=3600',
        'X-Content-Type-Options': 'nosniff',
        'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
      });
      res.type('image/svg+xml').send(svg);
    } catch (err) {
      if (!(err instanceof AppError)) runtime.logger.error({ err }, 'lender image failed');
      res.status(err instanceof AppError ? HTTP_STATUS_BY_CODE[err.code] : 500).end();
    }
  });
  return router;
}

/** Pages opened by personal links: never cached, never framed, the link never sent on as a referrer. */
const PAGE_HEADERS = { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer', 'X-Frame-Options': 'DENY' };

/** A refused choice in words for the page: the problem and what about the choice was wrong. */
function choiceProblemText(problem: AppError): string {
  const details = problem.fields.map((f) => f.message).join('; ');
  return details ? `${problem.message}: ${details}` : problem.message;
}

/** A link that cannot be opened names nobody: whoever holds any link (or guesses an id) learns no account's name. */
function sendPageProblem(runtime: EdgeServices, res: Response, err: unknown): void {
  if (!(err instanceof AppError)) runtime.logger.error({ err }, 'page failed');
  const problem = err instanceof AppError ? err : new AppError('INTERNAL', 'Something went wrong');
  const status = HTTP_STATUS_BY_CODE[problem.code];
  res
    .status(status)
    .type('html')
    .send(renderLinkProblemPage(status, linkProblemOf(problem)));
}

/** The kind of failure a person is told about (the technical message stays in the log). */
function linkProblemOf(problem: AppError): LinkProblem {
  if (problem.code === 'FORBIDDEN' || problem.code === 'UNAUTHENTICATED') return /expired/.test(problem.message) ? 'expired' : 'invalid';
  if (problem.code === 'BAD_REQUEST' || problem.code === 'UNPROCESSABLE') return 'invalid';
  if (problem.code === 'NOT_FOUND') return 'not-found';
  return 'unavailable';
}
