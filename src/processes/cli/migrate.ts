/** `npm run db:migrate`: applies the committed migrations to DATABASE_URL (or the embedded database), then seeds demo data into an empty demo database. */
import 'reflect-metadata';
import { loadConfig } from '../../kernel/config.js';
import { startRuntime } from '../runtime.js';

const config = loadConfig();
const runtime = await startRuntime(config, { embeddedRole: 'cli' });
runtime.logger.info('database migrated');
await runtime.close();
