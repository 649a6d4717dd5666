import { describe, expect, it } from 'vitest';
import { emptyAlertLog } from '../state/alert-delivery';
import { defaultAlertsConfig } from '../state/alerts';
import { defaultNotebook, defaultSettings, type HistoryEntry, type NotebookRecord } from '../state/schema';
import { alertsLine, diagnosticsText } from './diagnostics';

const T0 = Date.UTC(2026, 10, 28, 3, 10);
const oom = {
  category: 'gpu-oom' as const,
  rule: 'torch-cuda-oom',
  description: 'CUDA out of memory',
  line: 'torch.OutOfMemoryError: CUDA out of memory.',
};

function notebook(key: string, history: HistoryEntry[], extra: Partial<NotebookRecord> = {}): NotebookRecord {
  return { ...defaultNotebook(key), enabled: true, title: 'secret-project.ipynb', history, ...extra };
}

const base = {
  extensionVersion: '1.2.3',
  browser: 'Mozilla/5.0 Chrome/131',
  uiLanguage: 'de',
  settings: defaultSettings(),
  now: T0 + 60_000,
};

describe('Copy diagnostics', () => {
  it('names versions, settings and the UI check with what its selectors found', () => {
    const check = {
      ready: true as const,
      detail: '"Restart session and run all" found by command; 3 cells',
      language: 'en',
    };
    const text = diagnosticsText({ ...base, notebooks: [], check });
    expect(text).toContain('Extension: 1.2.3');
    expect(text).toContain('Browser: Mozilla/5.0 Chrome/131');
    expect(text).toContain('Browser language: de');
    expect(text).toContain(`Settings: ${JSON.stringify(defaultSettings())}`);
    expect(text).toContain('Colab UI check: ready; "Restart session and run all" found by command; 3 cells');
    const failed = {
      ready: false as const,
      failed: { step: 'find-item' as const, reason: 'item-missing', saw: 'items: Run all' },
      language: 'ja',
    };
    expect(diagnosticsText({ ...base, notebooks: [], check: failed })).toContain(
      'Colab UI check: not ready at step find-item (item-missing); saw: items: Run all\nColab interface language: ja',
    );
    expect(diagnosticsText({ ...base, notebooks: [], check: 'no-answer' })).toContain('the page did not answer');
    expect(diagnosticsText({ ...base, notebooks: [] })).not.toContain('Colab UI check');
  });

  it('keeps the ids the everyday view leaves out, numbers notebooks and names none', () => {
    const pending = {
      kind: 'pending' as const,
      reason: 'failure' as const,
      action: 'restart-and-run-all' as const,
      restartAt: T0 + 5000,
      attempt: 'a1',
      ownerTab: 42,
      detectedAt: T0,
      verdict: oom,
    };
    const history: HistoryEntry[] = [
      {
        at: T0,
        type: 'restart-scheduled',
        params: { n: 1, max: 3, delaySec: 5 },
        verdict: oom,
        action: 'restart-and-run-all',
      },
    ];
    const failed = { step: 'confirm' as const, reason: 'no-dialog', saw: 'no dialog' };
    const problem = notebook('github:me/repo/blob/main/x.ipynb', [{ at: T0 - 1000, type: 'restart-failed', failed }], {
      status: { kind: 'ui-problem', at: T0, failed },
    });
    const text = diagnosticsText({
      ...base,
      notebooks: [notebook('drive:1AbC', history, { status: pending }), problem],
    });
    expect(text).toContain(
      'nb1 (drive): on, pending (failure, restart-and-run-all, tab 42, rule torch-cuda-oom); crash loop 0, lifetime 0',
    );
    expect(text).toContain('nb2 (github): on, ui-problem (step no-dialog; saw: no dialog); crash loop 0, lifetime 0');
    expect(text).toContain(
      '2026-11-28T03:10:00.000Z nb1 restart-scheduled n=1 max=3 delaySec=5 action=restart-and-run-all ' +
        'category=gpu-oom rule=torch-cuda-oom\n  torch.OutOfMemoryError: CUDA out of memory.',
    );
    expect(text).toContain('2026-11-28T03:09:59.000Z nb2 restart-failed step=confirm reason=no-dialog\n  no dialog');
    expect(text).not.toContain('secret-project');
    expect(text).not.toContain('1AbC');
    expect(text).not.toContain('me/repo');
  });

  it('carries the last 50 events of all notebooks, oldest first', () => {
    const many = (key: string, offset: number) =>
      notebook(
        key,
        Array.from({ length: 40 }, (_, i): HistoryEntry => ({ at: T0 + (2 * i + offset) * 1000, type: 'run-started' })),
      );
    const text = diagnosticsText({ ...base, notebooks: [many('drive:a', 0), many('drive:b', 1)] });
    const events = text.split('\n').filter((line) => / nb\d run-started$/.test(line));
    expect(events).toHaveLength(50);
    expect(events[0]).toBe(`${new Date(T0 + 30_000).toISOString()} nb1 run-started`);
    expect(events.at(-1)).toBe(`${new Date(T0 + 79_000).toISOString()} nb2 run-started`);
  });

  it('takes query strings and token-like strings out of every line, and keeps the rest', () => {
    const leaky: HistoryEntry[] = [
      {
        at: T0,
        type: 'run-stopped',
        params: {
          cell: 3,
          saw: 'HTTPError: 401 for https://huggingface.co/api/models?token=abc123 (hf_AbCdEfGhIjKlMnOpQrStUv01)',
        },
      },
      { at: T0 + 1, type: 'left-to-person', detail: 'Colab said: WANDB_API_KEY=0123456789abcdef0123456789abcdef' },
    ];
    const text = diagnosticsText({ ...base, notebooks: [notebook('drive:1AbC', leaky)] });
    expect(text).toContain('  HTTPError: 401 for https://huggingface.co/api/models?[redacted] (hf_[redacted])');
    expect(text).toContain('  Colab said: WANDB_API_KEY=[redacted]');
    expect(text).not.toMatch(/abc123|AbCdEf|0123456789abcdef/);
    expect(text).toContain('Browser: Mozilla/5.0 Chrome/131');
    expect(text).toContain(`Settings: ${JSON.stringify(defaultSettings())}`);
  });

  it("carries what the guard met in Colab's page as one line of JSON a fixture file can hold", () => {
    const captures = [
      { v: 1 as const, kind: 'dialog' as const, occasion: 'restart' as const, at: 1, language: 'en', nodes: [] },
    ];
    const check = { ready: true as const, detail: 'ok', language: 'en', captures };
    const lines = diagnosticsText({ ...base, notebooks: [], check }).split('\n');
    const at = lines.findIndex((line) => line.startsWith("What the guard met in Colab's page (1;"));
    expect(at).toBeGreaterThan(0);
    expect(JSON.parse(lines[at + 1]!)).toEqual({
      source: 'Copy diagnostics, Colab OOM Guard 1.2.3, 2026-11-28T03:11:00.000Z',
      captures,
    });
    const without = diagnosticsText({ ...base, notebooks: [], check: { ...check, captures: [] } });
    expect(without).not.toContain('What the guard met');
    expect(diagnosticsText({ ...base, notebooks: [], check: 'no-answer' })).not.toContain('What the guard met');
  });
});

describe('the alerts line of Copy diagnostics', () => {
  const token = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw9';
  const telegram = {
    ...defaultAlertsConfig(),
    url: 'https://api.telegram.org/',
    token,
    chatId: '-1001234567890',
  };

  it('says how alerts are set up and how they fare, never where they go nor their secrets', () => {
    const log = {
      ...emptyAlertLog(),
      pending: [
        { id: 'a', event: 'gave-up' as const, tries: 1, dueAt: T0, request: { url: 'x', headers: {}, body: '' } },
      ],
      pausedUntil: T0 + 30_000,
      failures: [
        { at: T0, event: 'gave-up' as const, error: { kind: 'http' as const, status: 429, waitSec: 30 }, final: false },
      ],
    };
    const line = alertsLine(telegram, log);
    expect(line).toBe(
      'Alerts: telegram, token set, chat set; events gave-up, run-stopped, ui-problem, left-to-person, tab-gone; ' +
        'name off, error line off; 1 waiting until 2026-11-28T03:10:30.000Z; last failures: http 429 (wait 30 s)',
    );
    const text = diagnosticsText({ ...base, notebooks: [], alerts: { config: telegram, log } });
    expect(text).toContain(line);
    expect(text).not.toMatch(/api\.telegram|AAHdq|1001234567890/);
  });

  it('says none without a URL, and names a URL that no longer checks by its problem alone', () => {
    expect(alertsLine(defaultAlertsConfig(), emptyAlertLog())).toBe('Alerts: none');
    const broken = { ...defaultAlertsConfig(), url: 'http://example.org/secret-hook', kind: 'ntfy' as const };
    expect(alertsLine(broken, emptyAlertLog())).toMatch(/^Alerts: unusable URL \(not-https\) \(chosen\), no token;/);
  });
});
