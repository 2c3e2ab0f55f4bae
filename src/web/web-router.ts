/** Pages we serve to people rather than programs, opened by signed links: funding search, application continue. */
import express, { type Response, type Router } from 'express';
import { openContinuePage } from '../domain/applications/business-application-service.js';
import { AppError, HTTP_STATUS_BY_CODE } from '../domain/errors.js';
import { openFundingSearchPage } from '../domain/profiles/profile-links.js';
import type { Runtime } from '../processes/runtime.js';
import { renderContinuePage, renderFundingSearchPage, renderLinkProblemPage } from './funding-search-page.js';

export function webRouter(runtime: Runtime): Router {
  const router = express.Router();
  router.get('/app/funding-search/:uuid', async (req, res) => {
    res.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer', 'X-Frame-Options': 'DENY' });
    try {
      const page = await openFundingSearchPage(runtime.contextFor(), req.params.uuid, req.query.token);
      res.type('html').send(renderFundingSearchPage(page));
    } catch (err) {
      sendPageProblem(runtime, res, err);
    }
  });
  router.get('/app/applications/:id/continue', async (req, res) => {
    res.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer', 'X-Frame-Options': 'DENY' });
    try {
      const application = await openContinuePage(runtime.contextFor(), req.params.id, req.query.token);
      res.type('html').send(renderContinuePage(application));
    } catch (err) {
      sendPageProblem(runtime, res, err);
    }
  });
  return router;
}

function sendPageProblem(runtime: Runtime, res: Response, err: unknown): void {
  if (!(err instanceof AppError)) runtime.logger.error({ err }, 'page failed');
  const problem = err instanceof AppError ? err : new AppError('INTERNAL', 'Something went wrong');
  const status = HTTP_STATUS_BY_CODE[problem.code];
  res.status(status).type('html').send(renderLinkProblemPage(status, problem.message));
}
