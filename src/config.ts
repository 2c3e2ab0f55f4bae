/**
 * Configuration: parsed once at start from the environment, typed, fail-fast.
 * Every key is listed in README's configuration table and in .env.example.
 */
import { z } from 'zod';

const booleanFlag = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1');

const ConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('./.data'),
  DEPLOY_ENV: z.enum(['demo', 'production']).default('demo'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  REDIS_URL: z.string().url().optional(),
  SEED_DEMO_DATA: booleanFlag.optional(),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  PROFILES_URL: z.string().url().default('http://127.0.0.1:4011/graphql'),
  MATCHES_URL: z.string().url().default('http://127.0.0.1:4012/graphql'),
  APPLICATIONS_URL: z.string().url().default('http://127.0.0.1:4013/graphql'),
  TENANTS_URL: z.string().url().default('http://127.0.0.1:4014/graphql'),
});

export type AppConfig = Omit<z.infer<typeof ConfigSchema>, 'SEED_DEMO_DATA'> & {
  /** Demo data is seeded into an empty demo database unless switched off; never in production. */
  SEED_DEMO_DATA: boolean;
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<AppConfig> = {}): AppConfig {
  const parsed = ConfigSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const seed = parsed.data.SEED_DEMO_DATA ?? parsed.data.DEPLOY_ENV === 'demo';
  return { ...parsed.data, SEED_DEMO_DATA: seed && parsed.data.DEPLOY_ENV === 'demo', ...overrides };
}
