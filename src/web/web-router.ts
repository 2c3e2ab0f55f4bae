/** Pages we serve to people rather than programs: the profile funding-search page of signed links. */
import express, { type Router } from 'express';
import { AppError, HTTP_STATUS_BY_CODE } from '../domain/errors.js';
import { openFundingSearchPage } from '../domain/profiles/profile-links.js';
import type { Runtime } from '../runtime/runtime.js';
import { renderFundingSearchPage, renderLinkProblemPage } from './funding-search-page.js';

export function webRouter(runtime: Runtime): Router {
  const router = express.Router();
  router.get('/app/funding-search/:uuid', async (req, res) => {
    res.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer', 'X-Frame-Options': 'DENY' });
    try {
      const page = await openFundingSearchPage(runtime.contextFor(), req.params.uuid, req.query.token);
      res.type('html').send(renderFundingSearchPage(page));
    } catch (err) {
      if (!(err instanceof AppError)) runtime.logger.error({ err }, 'funding-search page failed');
      const problem = err instanceof AppError ? err : new AppError('INTERNAL', 'Something went wrong');
      const status = HTTP_STATUS_BY_CODE[problem.code];
      res.status(status).type('html').send(renderLinkProblemPage(status, problem.message));
    }
  });
  return router;
}
