/**
 * `npm run db:seed`: seeds the parts of the deterministic demo data that are missing (company registry,
 * demo lender catalogue, demo sign-in users), as a demo start does. Idempotent; refused in production.
 */
import { loadConfig } from '../../kernel/config.js';
import { openDatabase } from '../../infra/database.js';
import { createLogger, logDestination } from '../../infra/logger.js';
import { seedMissingDemoData } from '../demo-seed.js';
import { commandLine } from './command-line.js';

commandLine(
  'db:seed',
  `npm run db:seed
  seeds the missing parts of the demo data (company registry, lender catalogue, demo sign-in users)
  into DATABASE_URL (or the embedded database); idempotent; refused when DEPLOY_ENV=production`,
  {},
);

const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL, 'seed', logDestination(config.LOG_FORMAT));
if (config.DEPLOY_ENV === 'production') {
  logger.fatal('demo data is never seeded into a production deployment');
  process.exit(2);
}
const database = await openDatabase({
  databaseUrl: config.DATABASE_URL,
  dataDir: config.DATA_DIR,
  embeddedRole: 'cli',
  poolSize: config.DB_POOL_SIZE,
  log: (msg) => logger.info(msg),
});
try {
  await seedMissingDemoData(database.prisma, (msg) => logger.info(msg));
} finally {
  await database.close();
}
