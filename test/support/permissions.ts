import { fakeBrowser } from '@webext-core/fake-browser';
import { vi } from 'vitest';

/**
 * The optional host permissions the person granted, for the fake browser (which has no permission model): `contains`
 * answers from the returned set, `remove` takes from it; a test grants a site by adding its match pattern.
 */
export function grantedSites(): Set<string> {
  const granted = new Set<string>();
  const permissions = fakeBrowser.permissions as unknown as {
    contains: (request: { origins?: string[] }) => Promise<boolean>;
    remove: (request: { origins?: string[] }) => Promise<boolean>;
  };
  vi.spyOn(permissions, 'contains').mockImplementation(async ({ origins = [] }) =>
    origins.every((origin) => granted.has(origin)),
  );
  vi.spyOn(permissions, 'remove').mockImplementation(async ({ origins = [] }) => {
    for (const origin of origins) granted.delete(origin);
    return true;
  });
  return granted;
}
