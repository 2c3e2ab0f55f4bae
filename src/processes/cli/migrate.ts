/** `npm run db:migrate`: applies the committed migrations to DATABASE_URL (or the embedded database), then seeds demo data into an empty demo database. */
import 'reflect-metadata';
import { loadConfig } from '../../kernel/config.js';
import { startRuntime } from '../runtime.js';
import { commandLine } from './command-line.js';

commandLine(
  'db:migrate',
  `npm run db:migrate
  applies the committed migrations to DATABASE_URL (or the embedded database under DATA_DIR), then
  seeds the missing demo data unless DEPLOY_ENV=production or SEED_DEMO_DATA=false`,
  {},
);

const config = loadConfig();
const runtime = await startRuntime(config, { embeddedRole: 'cli' });
runtime.logger.info('database migrated');
await runtime.close();
