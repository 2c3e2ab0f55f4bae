/** GET /health: liveness, and readiness of what this process depends on (its database, by default). */
import express, { type Router } from 'express';
import type { Db } from '../infra/database.js';

export type ReadinessCheck = () => Promise<Record<string, string>>;

export function databaseReadiness(db: Db): ReadinessCheck {
  return async () => {
    await db.$queryRawUnsafe('SELECT 1');
    return { database: 'ready' };
  };
}

export function healthRouter(service: string, ready: ReadinessCheck): Router {
  const router = express.Router();
  router.get('/health', async (_req, res) => {
    try {
      res.json({ status: 'ok', service, ...(await ready()) });
    } catch {
      res.status(503).json({ status: 'unavailable', service });
    }
  });
  return router;
}
