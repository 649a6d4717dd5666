import type { Settings } from '../state/schema';

export type Patch = Partial<Omit<Settings, 'categories'>> & { categories?: Partial<Settings['categories']> };
/** Saves through the service worker; resolves to its refusal, or null once saved. */
export type Save = (patch: Patch) => Promise<string | null>;
