// Detector configurations shared by the detector's tests.
import { CATEGORIES, type Category, DEFAULT_CATEGORIES, type DetectorConfig } from '../../src/detector/types';

export function configWith(
  categories: Partial<Record<Category, boolean>>,
  patterns: Partial<DetectorConfig> = {},
): DetectorConfig {
  return { categories: { ...DEFAULT_CATEGORIES, ...categories }, failurePatterns: [], markerPatterns: [], ...patterns };
}

export const DEFAULTS = configWith({});
export const WITH_FAULTS = configWith({ 'gpu-fault': true });
export const ALL_ON = configWith(Object.fromEntries(CATEGORIES.map((c) => [c, true])));
