/** `npm run db:seed`: (re)applies the deterministic demo data and demo sign-in identities. Idempotent; refused in production. */
import { loadConfig } from '../config.js';
import { openDatabase } from '../infra/database.js';
import { createLogger } from '../infra/logger.js';
import { seedDemoData } from '../../prisma/seed/seed-demo-data.js';
import { seedDemoIdentities } from '../../prisma/seed/demo-identities.js';

const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL, 'seed');
if (config.DEPLOY_ENV === 'production') {
  logger.fatal('demo data is never seeded into a production deployment');
  process.exit(2);
}
const database = await openDatabase({
  databaseUrl: config.DATABASE_URL,
  dataDir: config.DATA_DIR,
  poolSize: config.DB_POOL_SIZE,
  log: (msg) => logger.info(msg),
});
const counts = await seedDemoData(database.prisma, (msg) => logger.info(msg));
logger.info(counts, 'demo data seeded');
const identities = await seedDemoIdentities(database.prisma, (msg) => logger.info(msg));
logger.info(identities, 'demo identities ensured');
await database.close();
