// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mount, snippet, tick } from '../../test/support/colab-dom';
import { deepQuery } from './dom';
import { runtimeState } from './kernel-state';
import { runStartCheck, takeRunSnapshot, verifyRunStarted, waitForReadyRuntime } from './verify';

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
      failed: {
        step: 'runtime-ready',
        reason: 'runtime-not-ready',
        saw: 'the connect button still showed "disconnected" after 40 ms',
      },
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
      expect(outcome).toMatchObject({ ok: false, failed: { step: 'runtime-ready', reason: 'runtime-not-ready' } });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('runStartCheck: what proves a run started', () => {
  const CELL_ID = 'T2BNeFUZ1OGZ';
  const counterOf = (cell: Element) =>
    cell.querySelector('colab-run-button')!.shadowRoot!.querySelector('.execution-count')!;

  it('a cell rendered late (§4.1, lazy cells) with the number of an earlier run is no run', () => {
    const check = runStartCheck(document, takeRunSnapshot(document));
    const [cell] = mount(snippet('code-cell-with-static-output-2026-03.html'));
    expect(counterOf(cell!).textContent).toContain('[11]');
    expect(check()).toBeNull();
  });

  it('a first execution number where there was none is one, said as "[ ]"', () => {
    const [cell] = mount(snippet('code-cell-with-static-output-2026-03.html'));
    counterOf(cell!).textContent = '[ ]';
    const check = runStartCheck(document, takeRunSnapshot(document));
    expect(check()).toBeNull();
    counterOf(cell!).textContent = '[1]';
    expect(check()).toBe(`cell ${CELL_ID} execution count [ ] -> 1`);
  });
});

describe('verifyRunStarted without a bound named', () => {
  it('looks for a run for 15 s, and says so only then', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const [cell] = mount(snippet('code-cell-with-static-output-2026-03.html'));
      let outcome: unknown = null;
      void verifyRunStarted(document).then((result) => {
        outcome = result;
      });
      await vi.advanceTimersByTimeAsync(14_900);
      expect(outcome).toBeNull();
      cell!.querySelector('colab-run-button')!.shadowRoot!.querySelector('.execution-count')!.textContent = '[12]';
      await vi.advanceTimersByTimeAsync(10);
      expect(outcome).toEqual({ ok: true, evidence: 'cell T2BNeFUZ1OGZ execution count 11 -> 12' });
      outcome = null;
      void verifyRunStarted(document).then((result) => {
        outcome = result;
      });
      await vi.advanceTimersByTimeAsync(14_990);
      expect(outcome).toBeNull();
      await vi.advanceTimersByTimeAsync(20);
      expect(outcome).toMatchObject({ ok: false, failed: { step: 'verify', reason: 'no-run-started' } });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('what verification says when it fails', () => {
  it('names the missing connect button, and why it matters', async () => {
    expect(await waitForReadyRuntime(document, { timeoutMs: 10 })).toEqual({
      ok: false,
      failed: {
        step: 'runtime-ready',
        reason: 'connect-button-missing',
        saw: 'no colab-connect-button: cannot tell whether the runtime is ready',
      },
    });
  });

  it('names each open dialog, its words cut at 120 characters', async () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    const long = `Your session crashed. ${'x'.repeat(300)}`;
    mount(`<mwc-dialog open heading="Notice"><div>${long}</div></mwc-dialog>`);
    mount('<mwc-dialog open heading="Second notice"><div>Other words</div></mwc-dialog>');
    const result = await verifyRunStarted(document, { timeoutMs: 10 });
    expect(result.ok).toBe(false);
    const saw = result.ok ? '' : result.failed.saw;
    const [, dialogs] = saw.split('; open dialogs: ');
    const [first, second] = dialogs!.split('; ');
    expect(first).toMatch(/^unknown: "Notice Your session crashed\. x+"$/);
    expect(first!.length).toBe('unknown: ""'.length + 120);
    expect(second).toBe('unknown: "Second notice Other words"');
  });

  it('with no runtime state and no dialog to name, says only what the cells showed', async () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    const result = await verifyRunStarted(document, { timeoutMs: 10 });
    expect(!result.ok && result.failed.saw).toBe('1 cells, none pending/running');
  });
});
