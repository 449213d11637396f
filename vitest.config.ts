import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Tests open real sockets; two workers fit the 2-core machines we run on.
    pool: 'forks',
    maxWorkers: 2,
  },
});
