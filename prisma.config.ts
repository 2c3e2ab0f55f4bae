// Prisma CLI configuration for offline machines (see docs/development.md, "Migrations and Prisma"): the WebAssembly
// schema engine through the pg driver adapter, so no engine binary is ever downloaded.
import { defineConfig } from 'prisma/config';
import { PrismaPg } from '@prisma/adapter-pg';

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  adapter: async () => new PrismaPg({ connectionString: process.env.DATABASE_URL! }),
});
