import preact from '@preact/preset-vite';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [preact()],
  test: {
    include: [
      'src/**/*.test.{ts,tsx}',
      'python/**/*.test.ts',
      'scripts/**/*.test.mjs',
      'e2e/{harness,night}/**/*.test.ts',
      'bench/lib/**/*.test.ts',
    ],
    environment: 'node',
    restoreMocks: true,
    setupFiles: ['test/support/setup.ts'],
  },
});
