// @vitest-environment happy-dom
import { fakeBrowser } from '@webext-core/fake-browser';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  click,
  type FakeWorker,
  getByRole,
  getByText,
  installFakeBrowser,
  type Mounted,
  mount,
  queryAllByRole,
  storeNotebook,
  type,
  waitFor,
} from '../../test/support/ui';
import { DEFAULT_CATEGORIES } from '../detector';
import { MAX_USER_LINE_CHARS, MAX_USER_LINES } from '../limits';
import { defaultSettings } from '../state/schema';
import { loadAllNotebooks, loadSettings } from '../state/store';
import { Options } from './Options';
import { checkPatterns } from './patterns';
import { testText } from './tester';

vi.mock('webextension-polyfill', async () => ({ default: (await import('@webext-core/fake-browser')).fakeBrowser }));

const KEY = 'drive:1AbCdEfGhIjKlMnOpQrStUvWxYz012345';
const CUDA_OOM = [
  'Traceback (most recent call last):',
  '  File "train.py", line 10, in <module>',
  'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 14.75 GiB',
].join('\n');

/** The fake types these as returning nothing; the browser answers whether the permission is (or was) granted. */
const permissions = fakeBrowser.permissions as unknown as {
  contains: (request: unknown) => Promise<boolean>;
  request: (request: unknown) => Promise<boolean>;
};

let worker: FakeWorker;
let view: Mounted | undefined;

beforeEach(async () => {
  worker = await installFakeBrowser();
  vi.spyOn(permissions, 'contains').mockResolvedValue(false);
});

afterEach(() => {
  view?.unmount();
  view = undefined;
});

async function open() {
  view = await mount(<Options />);
  const root = view.container;
  await waitFor(() => getByRole(root, 'heading', 'Colab OOM Guard options'));
  return root;
}

const textbox = (root: HTMLElement, name: string | RegExp) => getByRole<HTMLInputElement>(root, 'textbox', name);

describe('defaults', () => {
  it('saves a number through the service worker and says so', async () => {
    const root = await open();
    const field = textbox(root, 'Max restarts in a row');
    expect(field.value).toBe('3');
    await type(field, '6');
    await waitFor(() => expect(field.parentElement?.querySelector('[role=status]')?.textContent).toBe('Saved'));
    expect(worker.sent).toEqual([{ type: 'ui-settings', patch: { maxRestarts: 6 } }]);
    expect((await loadSettings()).maxRestarts).toBe(6);
  });

  it('refuses a non-number locally, and shows the service worker refusing a combination', async () => {
    const root = await open();
    const first = textbox(root, 'First wait (seconds)');
    await type(first, '2.5');
    expect(first.getAttribute('aria-invalid')).toBe('true');
    expect(getByRole(root, 'alert').textContent).toBe('Enter a whole number from 1 to 3600. Not saved.');
    expect(worker.sent).toHaveLength(0);

    const longest = textbox(root, 'Longest wait (seconds)');
    await type(longest, '2');
    await waitFor(() =>
      expect(longest.parentElement?.querySelector('[role=alert]')?.textContent).toBe(
        'Invalid setting backoffMaxSec: The longest back-off must not be shorter than the first one',
      ),
    );
    expect(longest.getAttribute('aria-invalid')).toBe('true');
    expect((await loadSettings()).backoffMaxSec).toBe(300);
  });

  it('categories: GPU faults are off by default with an explanation; toggling one merges into categories', async () => {
    const root = await open();
    const fault = getByRole<HTMLInputElement>(root, 'checkbox', 'GPU faults (off by default)');
    expect(fault.checked).toBe(false);
    expect(getByText(root, /usually bugs in the code: a restart repeats them/)).toBeTruthy();
    await click(fault);
    await vi.waitFor(async () =>
      expect((await loadSettings()).categories).toEqual({ ...DEFAULT_CATEGORIES, 'gpu-fault': true }),
    );
    expect(worker.sent).toEqual([{ type: 'ui-settings', patch: { categories: { 'gpu-fault': true } } }]);
    await waitFor(() => expect(fault.checked).toBe(true));

    const reconnect = getByRole<HTMLInputElement>(root, 'checkbox', 'Reconnect when the runtime disconnects');
    expect(reconnect.checked).toBe(false);
    expect(getByRole<HTMLInputElement>(root, 'checkbox', "Colab's RAM crash").checked).toBe(true);
    const unknown = getByRole<HTMLInputElement>(root, 'checkbox', /Colab's crash “for an unknown reason”/);
    expect(unknown.checked).toBe(false);
    expect(getByText(root, /restarts its own session on purpose/)).toBeTruthy();
  });

  it("the notebook's status API: on by default, explained, and switched off through the service worker", async () => {
    const root = await open();
    const api = getByRole<HTMLInputElement>(root, 'checkbox', 'Let the notebook read its restart count');
    expect(api.checked).toBe(true);
    expect(getByText(root, /It learns about that notebook only/)).toBeTruthy();
    await click(api);
    await vi.waitFor(async () => expect((await loadSettings()).statusApi).toBe(false));
    expect(worker.sent).toEqual([{ type: 'ui-settings', patch: { statusApi: false } }]);
    await waitFor(() => expect(api.checked).toBe(false));
  });

  it.each([['05'], ['5 ']])('after saving %j shows 5, and follows settings changed elsewhere again', async (typed) => {
    const root = await open();
    const field = textbox(root, 'Healthy run (minutes)');
    await type(field, typed);
    await waitFor(() => expect(field.parentElement?.querySelector('[role=status]')?.textContent).toBe('Saved'));
    expect(field.value).toBe('5');
    await fakeBrowser.storage.local.set({ settings: { ...defaultSettings(), healthyMinutes: 45 } });
    await waitFor(() => expect(field.value).toBe('45'));
  });

  it('shows settings changed elsewhere', async () => {
    const root = await open();
    await fakeBrowser.storage.local.set({ settings: { ...defaultSettings(), healthyMinutes: 45 } });
    await waitFor(() => expect(textbox(root, 'Healthy run (minutes)').value).toBe('45'));
  });
});

describe('custom patterns', () => {
  it('refuses a pattern that does not compile, naming the line, and saves nothing', async () => {
    const root = await open();
    const box = getByRole<HTMLTextAreaElement>(root, 'textbox', 'Extra failure patterns');
    await type(box, 'MyError: out of budget\n\n(unclosed', false);
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(getByText(root, 'Line 3: This is not a valid regular expression: a ( has no matching ).')).toBeTruthy();

    await click(getByRole(root, 'button', 'Save Extra failure patterns'));
    expect(getByRole(root, 'alert').textContent).toBe('Not saved: fix the lines listed above first.');
    expect(worker.sent).toHaveLength(0);
    expect((await loadSettings()).failurePatterns).toEqual([]);

    await type(box, 'MyError: out of budget\n/retry me/i', false);
    expect(box.getAttribute('aria-invalid')).toBe('false');
    await click(getByRole(root, 'button', 'Save Extra failure patterns'));
    await waitFor(() => expect(getByText(root, 'Saved (2 patterns).')).toBeTruthy());
    expect((await loadSettings()).failurePatterns).toEqual(['MyError: out of budget', '/retry me/i']);
  });

  it('refuses syntax RE2 leaves out, saying what to write instead', async () => {
    const root = await open();
    const box = getByRole<HTMLTextAreaElement>(root, 'textbox', 'Restart marker patterns');
    await type(box, 'ok\n^(?=.*done)restart', false);
    expect(getByText(root, /^Line 2: Lookahead like \(\?=…\) or \(\?!…\) is not supported/)).toBeTruthy();
    await click(getByRole(root, 'button', 'Save Restart marker patterns'));
    expect(worker.sent).toHaveLength(0);
  });

  it('keeps saved patterns this version refuses, says they are not in use and why, and saves once fixed', async () => {
    await fakeBrowser.storage.local.set({
      settings: { ...defaultSettings(), failurePatterns: ['ok', '(a)\\1', '\\u00e9t\\u00e9'] },
    });
    const root = await open();
    const box = getByRole<HTMLTextAreaElement>(root, 'textbox', 'Extra failure patterns');
    const notice = /^Not in use: 2 of the saved patterns are refused by this version/;
    await waitFor(() => expect(getByText(root, notice)).toBeTruthy());
    expect(box.value).toBe('ok\n(a)\\1\n\\u00e9t\\u00e9');
    expect(getByText(root, /^Line 2: Backreferences like \\1/)).toBeTruthy();
    expect(getByText(root, 'Line 3: Write a Unicode character as \\x{00e9}, not \\u00e9 or \\u{e9}.')).toBeTruthy();

    await type(box, 'ok\n\\x{e9}t\\x{e9}', false);
    await click(getByRole(root, 'button', 'Save Extra failure patterns'));
    await waitFor(() => expect(getByText(root, 'Saved (2 patterns).')).toBeTruthy());
    expect((await loadSettings()).failurePatterns).toEqual(['ok', '\\x{e9}t\\x{e9}']);
    expect(root.textContent).not.toMatch(notice);
  });

  it('shows the service worker refusing patterns', async () => {
    worker.override(() => ({ ok: false, message: 'Invalid setting failurePatterns: too many' }));
    const root = await open();
    await type(getByRole<HTMLTextAreaElement>(root, 'textbox', 'Extra failure patterns'), 'x+y', false);
    await click(getByRole(root, 'button', 'Save Extra failure patterns'));
    await waitFor(() => expect(getByRole(root, 'alert').textContent).toBe('Invalid setting failurePatterns: too many'));
  });
});

describe('Test an output', () => {
  it('says Restart with the category, rule and line, or No restart', async () => {
    const root = await open();
    const box = getByRole<HTMLTextAreaElement>(root, 'textbox', 'Test an output');
    const status = () => root.querySelector('#tester-verdict')!;
    expect(status().getAttribute('role')).toBe('status');

    await type(box, CUDA_OOM, false);
    expect(status().textContent).toMatch(
      /^Restart — .+, rule torch-[\w-]+: torch\.OutOfMemoryError: CUDA out of memory/,
    );

    await type(box, 'ValueError: shapes (3,4) and (5,6) not aligned', false);
    expect(status().textContent).toBe('No restart — no rule or pattern matches this text.');

    await type(box, 'Your session crashed after using all available RAM.', false);
    expect(status().textContent).toMatch(/^Restart — Colab session crashed after using all available RAM, rule /);
  });

  it('uses the patterns as typed, markers included', async () => {
    const root = await open();
    await type(
      getByRole<HTMLTextAreaElement>(root, 'textbox', 'Restart marker patterns'),
      'FRESH RUNTIME PLEASE',
      false,
    );
    await type(
      getByRole<HTMLTextAreaElement>(root, 'textbox', 'Test an output'),
      'epoch 3 done\nFRESH RUNTIME PLEASE',
      false,
    );
    expect(root.querySelector('#tester-verdict')!.textContent).toBe(
      'Restart — as a restart marker, pattern FRESH RUNTIME PLEASE: FRESH RUNTIME PLEASE',
    );
  });
});

describe('notifications', () => {
  it('asks for the permission when switched on, and stays off when refused', async () => {
    const request = vi.spyOn(permissions, 'request').mockResolvedValue(false);
    const root = await open();
    const toggle = getByRole<HTMLInputElement>(root, 'switch', 'Desktop notifications');
    await click(toggle);
    expect(request).toHaveBeenCalledWith({ permissions: ['notifications'] });
    await waitFor(() =>
      expect(getByRole(root, 'alert').textContent).toBe('Permission was not granted, so notifications stay off.'),
    );
    expect(toggle.checked).toBe(false);
    expect(worker.sent).toHaveLength(0);
  });

  it('saves notifications on once granted', async () => {
    vi.spyOn(permissions, 'request').mockResolvedValue(true);
    const root = await open();
    const toggle = getByRole<HTMLInputElement>(root, 'switch', 'Desktop notifications');
    await click(toggle);
    await waitFor(() => expect(toggle.checked).toBe(true));
    expect(worker.sent).toEqual([{ type: 'ui-settings', patch: { notifications: true } }]);
  });
});

describe('data', () => {
  function chooseFile(input: HTMLInputElement, file: File) {
    Object.defineProperty(input, 'files', { value: [file], configurable: true });
    input.dispatchEvent(new Event('change', { bubbles: true }));
  }

  it('refuses an invalid import with a clear message and changes nothing', async () => {
    await storeNotebook(KEY, { enabled: true, title: 'kept.ipynb' });
    const root = await open();
    const input = getByRole<HTMLInputElement>(root, 'file', 'Import from a file');
    chooseFile(input, new File(['{"format":"something-else"}'], 'notes.json', { type: 'application/json' }));
    await waitFor(() =>
      expect(getByRole(root, 'alert').textContent).toBe(
        'notes.json was not imported, nothing changed: This is not a Colab OOM Guard export (its "format" is not ' +
          '"colab-oom-guard").',
      ),
    );
    expect(await loadAllNotebooks()).toMatchObject([{ key: KEY, enabled: true, title: 'kept.ipynb' }]);
  });

  it('refuses a file over the size limit without reading it', async () => {
    const root = await open();
    const file = new File(['{}'], 'huge.json');
    Object.defineProperty(file, 'size', { value: 20_000_001 });
    const read = vi.spyOn(file, 'text');
    chooseFile(getByRole(root, 'file', 'Import from a file'), file);
    await waitFor(() =>
      expect(getByRole(root, 'alert').textContent).toBe(
        'huge.json is too large (20.0 MB; an export of this extension is at most 20.0 MB), so it was not read. ' +
          'Nothing changed.',
      ),
    );
    expect(read).not.toHaveBeenCalled();
    expect(worker.sent).toEqual([]);
  });

  it('imports a valid export and shows the new settings', async () => {
    const root = await open();
    const file = {
      format: 'colab-oom-guard',
      version: 1,
      exportedAt: new Date().toISOString(),
      settings: { ...defaultSettings(), maxRestarts: 9 },
      notebooks: [{ v: 1, key: KEY, title: 'imported.ipynb', enabled: true }],
    };
    chooseFile(getByRole(root, 'file', 'Import from a file'), new File([JSON.stringify(file)], 'backup.json'));
    await waitFor(() => expect(getByText(root, 'Imported backup.json: settings and 1 notebooks.')).toBeTruthy());
    await waitFor(() => expect(textbox(root, 'Max restarts in a row').value).toBe('9'));
  });

  it('exports settings and notebooks as a JSON download', async () => {
    await storeNotebook(KEY, { enabled: true });
    const created: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      created.push(blob as Blob);
      return 'blob:test';
    });
    const clicks = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      expect(this.download).toMatch(/^colab-oom-guard-\d{4}-\d{2}-\d{2}\.json$/);
    });
    const root = await open();
    await click(getByRole(root, 'button', 'Export settings and history (JSON)'));
    await waitFor(() => expect(getByText(root, 'Exported settings and 1 notebooks.')).toBeTruthy());
    expect(clicks).toHaveBeenCalledOnce();
    const exported = JSON.parse(await created[0]!.text());
    expect(exported).toMatchObject({ format: 'colab-oom-guard', notebooks: [{ key: KEY, enabled: true }] });
  });

  it('clears all data only after confirmation', async () => {
    await storeNotebook(KEY, { enabled: true });
    const root = await open();
    await click(getByRole(root, 'button', 'Clear all data…'));
    expect(worker.sent).toHaveLength(0);
    expect(document.activeElement?.textContent).toBe('Keep my data');
    await click(getByRole(root, 'button', 'Keep my data'));
    expect(queryAllByRole(root, 'button', 'Delete all data')).toHaveLength(0);

    await click(getByRole(root, 'button', 'Clear all data…'));
    await click(getByRole(root, 'button', 'Delete all data'));
    await waitFor(() => expect(getByText(root, 'All data cleared. Settings are back to their defaults.')).toBeTruthy());
    expect(worker.sent).toEqual([{ type: 'ui-clear' }]);
    expect(await loadAllNotebooks()).toEqual([]);
  });

  it('shows the writes the browser refused at the top, until dismissed', async () => {
    const lost = 'Your change was not saved.';
    await fakeBrowser.storage.session.set({ storageErrors: [{ at: Date.now(), message: 'full', lost }] });
    const root = await open();
    await waitFor(() => expect(getByRole(root, 'alert').textContent).toContain(`${lost} — full`));
    expect(root.querySelector('main > header + .storage-errors')).toBeTruthy();
  });

  it('lists storage problems when there are any', async () => {
    await fakeBrowser.storage.local.set({ [`nb:${KEY}`]: 'garbage' });
    const root = await open();
    expect(queryAllByRole(root, 'heading', 'Storage problems')).toHaveLength(0);
    await loadAllNotebooks();
    await waitFor(() => getByRole(root, 'heading', 'Storage problems'));
    expect(getByText(root, /not a record \(a string/)).toBeTruthy();
  });
});

describe('checkPatterns', () => {
  it('numbers lines as the user sees them and skips blank ones', () => {
    expect(checkPatterns('a\n\n[\n')).toMatchObject({ patterns: ['a'], problems: [{ line: 3 }] });
    expect(checkPatterns('x'.repeat(501)).problems[0]?.message).toMatch(/at most 500 characters/);
    expect(checkPatterns(Array.from({ length: 101 }, (_, i) => `p${i}`).join('\n')).problems).toHaveLength(1);
  });
});

describe('testText', () => {
  it('explains a match in a category that is off', () => {
    const result = testText(CUDA_OOM, {
      categories: { ...DEFAULT_CATEGORIES, 'gpu-oom': false },
      failurePatterns: [],
      markerPatterns: [],
    });
    expect(result?.restart).toBe(false);
    expect(result?.message).toMatch(
      /^No restart — this is “.+”, but the failure kind “GPU out of memory” is switched off\.$/,
    );
  });

  it("runs the user's patterns on the page's engine: the issue's patterns answer on hostile output", () => {
    const patterns = ['(a|aa)+$', '(\\w|\\d)+$', '(a+){2,60}$', '(.*?,){11}P', '.*.*.*x'];
    const config = { categories: DEFAULT_CATEGORIES, failurePatterns: patterns, markerPatterns: patterns };
    const hostile = Array.from({ length: MAX_USER_LINES }, (_, i) =>
      i % 2 ? `${'a'.repeat(MAX_USER_LINE_CHARS - 1)}!` : `P${','.repeat(MAX_USER_LINE_CHARS - 1)}`,
    ).join('\n');
    expect(testText(hostile, config)).toEqual({
      restart: false,
      message: 'No restart — no rule or pattern matches this text.',
    });
    expect(testText(`${hostile}\n${','.repeat(11)}P!`, config)?.message).toBe(
      `Restart — Your failure pattern (.*?,){11}P, rule custom:(.*?,){11}P: ${','.repeat(11)}P!`,
    );
  });
});
