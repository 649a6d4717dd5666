import { fakeBrowser } from '@webext-core/fake-browser';
import { vi } from 'vitest';

interface Request {
  origins?: string[];
  data_collection?: string[];
}

/**
 * The optional host permissions the person granted, for the fake browser (which has no permission model): `contains`
 * answers from the returned set, `remove` takes from it; a test grants a site by adding its match pattern. `consent`
 * gives Firefox's data consent (the categories granted), or null for Chrome, which has none and names none in
 * `getAll`.
 */
export function grantedSites(consent: () => Set<string> | null = () => null): Set<string> {
  const granted = new Set<string>();
  const permissions = fakeBrowser.permissions as unknown as {
    contains: (request: Request) => Promise<boolean>;
    remove: (request: Request) => Promise<boolean>;
    getAll: () => Promise<unknown>;
  };
  vi.spyOn(permissions, 'contains').mockImplementation(
    async ({ origins = [], data_collection = [] }) =>
      origins.every((origin) => granted.has(origin)) && data_collection.every((data) => consent()?.has(data)),
  );
  vi.spyOn(permissions, 'remove').mockImplementation(async ({ origins = [], data_collection = [] }) => {
    for (const origin of origins) granted.delete(origin);
    for (const data of data_collection) consent()?.delete(data);
    return true;
  });
  permissions.getAll = vi.fn(async () => {
    const given = consent();
    return { origins: [...granted], permissions: [], ...(given ? { data_collection: [...given] } : {}) };
  });
  return granted;
}
