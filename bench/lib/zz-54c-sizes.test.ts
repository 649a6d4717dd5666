import { it } from 'vitest';
import { measureSizes } from './sizes';

it('prints the sizes of dist', () => {
  for (const e of measureSizes(process.env.SIZES_DIST ?? 'dist')) console.log(`SIZE ${e.what}: raw ${e.raw}, gzip ${e.gzip}`);
});
