/**
 * `npm run company-stream`: the optional process that keeps the company register fresh between bulk
 * imports by following the Companies House companies stream (modules/companies/companies-house/
 * companies-stream.ts). Run as many as you like: one follows (it holds the lease), the others stand
 * by. /health on PORT; /health/ready names the stream's state, and `company_stream_lag_seconds` on
 * /metrics is how far behind the register is.
 */
import http from 'node:http';
import express from 'express';
import { Gauge } from 'prom-client';
import { databaseReadiness, healthRouter } from '../api/http/health.js';
import { mountMetrics } from '../api/http/observability.js';
import { closeServer, listen } from '../api/http/listen.js';
import { loadConfig } from '../kernel/config.js';
import { createLogger, logDestination } from '../infra/logger.js';
import { labelProcessMetrics, metricsRegistry } from '../infra/metrics.js';
import { followCompaniesStream } from '../modules/companies/companies-house/companies-stream.js';
import { startRuntime } from './runtime.js';
import { handleShutdownSignals } from './shutdown.js';

const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL, 'funding-gateway:company-stream', logDestination(config.LOG_FORMAT));
if (!config.COMPANIES_HOUSE_STREAM_KEY) {
  logger.fatal('COMPANIES_HOUSE_STREAM_KEY is required: the companies stream is followed with a streaming API key');
  process.exit(2);
}
labelProcessMetrics('company-stream', config.INSTANCE_ID);
const shutdown = handleShutdownSignals(logger);
const runtime = await startRuntime(config, { logger, prepareDatabase: false, onOpen: shutdown.add });
const stream = followCompaniesStream({
  db: runtime.database.prisma,
  baseUrl: config.COMPANIES_HOUSE_STREAM_URL,
  streamKey: config.COMPANIES_HOUSE_STREAM_KEY,
  logger,
});
shutdown.add('company stream', () => stream.stop());

new Gauge({
  name: 'company_stream_lag_seconds',
  help: 'Seconds between now and the publication of the last companies-stream event applied (0 when the stream says nothing is pending)',
  registers: [metricsRegistry],
  collect() {
    this.set(stream.status().lagSeconds);
  },
});

const app = express();
app.disable('x-powered-by');
const metricsServer = await mountMetrics(app, config);
app.use(
  healthRouter('company-stream', databaseReadiness(runtime.database.prisma), {
    database: async () => {
      await databaseReadiness(runtime.database.prisma)();
      return 'ready';
    },
    // Standing by is ready (another process follows); holding the lease but disconnected is not.
    companyStream: async () => {
      const s = stream.status();
      if (s.lease === 'waiting') return 'standby: another process holds the lease';
      if (!s.connected) return 'unavailable';
      return `following from timepoint ${s.timepoint ?? 'now'}, lag ${s.lagSeconds} s`;
    },
  }),
);
const server = http.createServer(app);
const url = await listen(server, config.PORT, config.HOST);
shutdown.add('server', async () => {
  await closeServer(server);
  await metricsServer?.close();
});
logger.info({ url }, 'company-stream ready');
