import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Tests open real sockets; two workers fit the 2-core machines we run on.
    pool: 'forks',
    maxWorkers: 2,
    // Servers started by tests log at info; keep the run readable unless asked otherwise.
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
  },
});
