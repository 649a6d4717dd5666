// @vitest-environment happy-dom
import { fakeBrowser } from '@webext-core/fake-browser';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { click, installFakeBrowser, type Mounted, mount, waitFor } from '../../test/support/ui';
import { Welcome } from './Welcome';

vi.mock('webextension-polyfill', async () => ({ default: (await import('@webext-core/fake-browser')).fakeBrowser }));

let view: Mounted | undefined;

beforeEach(async () => {
  await installFakeBrowser();
});

afterEach(() => {
  view?.unmount();
  view = undefined;
});

describe('the welcome page', () => {
  it("says the restart limits as set now: README's 3 restarts, 5 s, 30 minutes by default", async () => {
    view = await mount(<Welcome />);
    const text = await waitFor(() => {
      const said = view!.container.textContent ?? '';
      expect(said).toContain('the guard makes at most 3 restarts in a row');
      return said;
    });
    expect(text).toContain('a countdown that starts at 5 s and doubles');
    expect(text).toContain('30 minutes without a failure puts the count back to 0');
    view.unmount();
    await fakeBrowser.storage.local.set({ settings: { v: 1, maxRestarts: 1, backoffBaseSec: 9, healthyMinutes: 1 } });
    view = await mount(<Welcome />);
    await waitFor(() =>
      expect(view!.container.textContent).toContain('at most 1 restart in a row, each after a countdown'),
    );
    expect(view.container.textContent).toContain('starts at 9 s');
    expect(view.container.textContent).toContain('1 minute without a failure puts');
  });

  it('lists five steps and three warnings; links to the guide, troubleshooting, changelog, options', async () => {
    view = await mount(<Welcome />);
    const steps = view.container.querySelectorAll('section[aria-labelledby=quick-start] li');
    expect(steps).toHaveLength(5);
    expect(view.container.querySelectorAll('section[aria-labelledby=good-to-know] li')).toHaveLength(3);
    const links = [...view.container.querySelectorAll<HTMLAnchorElement>('nav a')];
    expect(links.map((a) => a.getAttribute('target'))).toEqual(['_blank', '_blank', '_blank', null]);
    expect(links[1]!.href).toContain('troubleshooting');
    expect(links[2]!.href).toContain('CHANGELOG');
    expect(view.container.querySelector('img')!.getAttribute('src')).toContain('icons/icon-128.png');
    await click(links[3]!);
    expect(fakeBrowser.runtime.openOptionsPage).toHaveBeenCalledTimes(1);
  });
});
