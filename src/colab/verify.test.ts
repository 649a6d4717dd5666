// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mount, snippet, tick } from '../../test/support/colab-dom';
import { deepQuery } from './dom';
import { runtimeState } from './kernel-state';
import { waitForReadyRuntime } from './verify';

afterEach(() => {
  document.body.innerHTML = '';
});

const root = () => deepQuery(document, 'colab-connect-button')!.shadowRoot!;
const icon = () => root().querySelector('#connect-icon md-icon')!;
const button = () => root().querySelector('#connect, #reconnect')!;

describe('runtimeState: what the connect button shows (§5.4, §11.5)', () => {
  it('reads the captured connected-and-idle button as idle', () => {
    mount(snippet('connect-button-connected-2026-03.html'));
    expect(runtimeState(document)).toBe('idle');
  });

  it('reads busy and connecting by the icon ligature, in any language, and the English labels', () => {
    mount(snippet('connect-button-connected-2026-03.html'));
    icon().textContent = 'more_horiz';
    expect(runtimeState(document)).toBe('busy');
    button().append('Connecting');
    expect(runtimeState(document)).toBe('connecting');
    button().textContent = 'Verbindung wird hergestellt';
    expect(runtimeState(document)).toBe('busy');
    button().textContent = 'Allocating';
    icon().textContent = 'done';
    expect(runtimeState(document)).toBe('connecting');
  });

  it('reads a disconnected button, by its label or by a hidden icon', () => {
    mount(snippet('connect-button-connected-2026-03.html'));
    button().textContent = 'Reconnect';
    expect(runtimeState(document)).toBe('disconnected');
    button().textContent = 'Connect T4';
    expect(runtimeState(document)).toBe('disconnected');
    button().textContent = 'Verbinden';
    root().querySelector('#connect-icon')!.setAttribute('hidden', '');
    expect(runtimeState(document)).toBe('unknown');
  });

  it('finds the button as #reconnect too, and says so when there is no connect button at all', () => {
    mount(snippet('connect-button-connected-2026-03.html'));
    button().id = 'reconnect';
    button().textContent = 'Reconnect';
    expect(runtimeState(document)).toBe('disconnected');
    document.body.innerHTML = '';
    expect(runtimeState(document)).toBeNull();
  });
});

describe('waitForReadyRuntime', () => {
  it('resolves on the change in the shadow root that shows the runtime idle', async () => {
    mount(snippet('connect-button-connected-2026-03.html'));
    icon().textContent = 'more_horiz';
    const ready = waitForReadyRuntime(document, { timeoutMs: 2000 });
    let settled = false;
    void ready.then(() => {
      settled = true;
    });
    await tick(30);
    expect(settled).toBe(false);
    icon().textContent = 'done';
    expect(await ready).toEqual({ ok: true });
  });

  it('fails at the bound with what the button showed', async () => {
    mount(snippet('connect-button-connected-2026-03.html'));
    button().textContent = 'Reconnect';
    expect(await waitForReadyRuntime(document, { timeoutMs: 40 })).toEqual({
      ok: false,
      reason: 'runtime-not-ready',
      saw: 'the connect button still showed "disconnected" after 40 ms',
    });
  });

  it('waits 60 s by default, as README promises after a crash, and not a moment longer', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      mount(snippet('connect-button-connected-2026-03.html'));
      icon().textContent = 'more_horiz';
      let outcome: unknown = null;
      void waitForReadyRuntime(document).then((result) => {
        outcome = result;
      });
      await vi.advanceTimersByTimeAsync(59_999);
      expect(outcome).toBeNull();
      await vi.advanceTimersByTimeAsync(1);
      expect(outcome).toMatchObject({ ok: false, reason: 'runtime-not-ready' });
    } finally {
      vi.useRealTimers();
    }
  });
});
