import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['reflect-metadata'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
