import { describe, expect, it, vi } from 'vitest';
import { configWith } from '../../test/support/detector-configs';
import { loadDetector } from './index';

/** How many times the pattern engine (~150 kB) was imported. */
const engineLoads = vi.hoisted(() => ({ count: 0 }));
vi.mock('./engine', async (importOriginal) => {
  engineLoads.count++;
  return importOriginal();
});

describe('loadDetector', () => {
  it('loads the pattern engine only where there are patterns', async () => {
    const plain = await loadDetector(configWith({}));
    expect(plain.hasMarkers).toBe(false);
    expect(engineLoads.count).toBe(0);
    const marked = await loadDetector(configWith({}, { markerPatterns: ['@@RESTART@@'] }));
    expect(engineLoads.count).toBe(1);
    expect(marked.findMarker('step 9\n@@RESTART@@')?.pattern).toBe('@@RESTART@@');
  });
});
