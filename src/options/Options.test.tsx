// @vitest-environment happy-dom
import { fakeBrowser } from '@webext-core/fake-browser';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import pkg from '../../package.json';
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
const OTHER = 'drive:0ZyXwVuTsRqPoNmLkJiHgFeDcBa98765';
const HEARTBEAT = 'https://hc-ping.com/5f2c1a3e-9b7d-4e21-8c3a-0d6f1e2b3c4d';
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
    const first = textbox(root, 'First countdown (seconds)');
    await type(first, '2.5');
    expect(first.getAttribute('aria-invalid')).toBe('true');
    expect(getByRole(root, 'alert').textContent).toBe('Enter a whole number from 1 to 3600. Not saved.');
    expect(worker.sent).toHaveLength(0);

    const longest = textbox(root, 'Longest countdown (seconds)');
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

    const reconnect = getByRole<HTMLInputElement>(
      root,
      'checkbox',
      'Reconnect and run all after “Runtime disconnected”',
    );
    expect(reconnect.checked).toBe(false);
    expect(getByRole<HTMLInputElement>(root, 'checkbox', "Colab's RAM crash").checked).toBe(true);
    const unknown = getByRole<HTMLInputElement>(root, 'checkbox', /Colab's crash for an unknown reason/);
    expect(unknown.checked).toBe(false);
    expect(getByText(root, /restarts its own session on purpose/)).toBeTruthy();
  });

  it('"never end": off by default, explained, and switched on through the service worker', async () => {
    const root = await open();
    const never = getByRole<HTMLInputElement>(root, 'checkbox', 'Keep a guard on until I switch it off');
    expect(never.checked).toBe(false);
    expect(getByText(root, /no cell has been queued or running in its notebook for 12 hours/)).toBeTruthy();
    await click(never);
    await vi.waitFor(async () => expect((await loadSettings()).guardNeverEnds).toBe(true));
    expect(worker.sent).toEqual([{ type: 'ui-settings', patch: { guardNeverEnds: true } }]);
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

describe('about', () => {
  it("shows the version and links to the repository's guide, troubleshooting and CHANGELOG", async () => {
    const root = await open();
    expect(getByText(root, `Version ${pkg.version}`)).toBeTruthy();
    const repo = pkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
    expect(repo).toMatch(/^https:\/\//);
    expect(getByRole<HTMLAnchorElement>(root, 'link', 'User guide').href).toBe(`${repo}/blob/main/docs/guide.md`);
    expect(getByRole<HTMLAnchorElement>(root, 'link', 'Troubleshooting').href).toBe(
      `${repo}/blob/main/docs/troubleshooting.md`,
    );
    expect(getByRole<HTMLAnchorElement>(root, 'link', "What's new (changelog)").href).toBe(
      `${repo}/blob/main/CHANGELOG.md`,
    );
    expect(getByRole<HTMLAnchorElement>(root, 'link', 'Quick start').href).toBe(
      fakeBrowser.runtime.getURL('src/welcome/index.html'),
    );
  });
});

describe('guarded notebooks', () => {
  it('lists each stored notebook by name with its state; its switch and Reset counter go to the worker', async () => {
    await storeNotebook(KEY, { title: 'train.ipynb', enabled: true, loopCount: 2 });
    await storeNotebook(OTHER, { title: 'eval.ipynb', enabled: false, overrides: { maxRestarts: 5 } });
    const root = await open();
    const rows = await waitFor(() => {
      const found = [...root.querySelectorAll('.notebook-row')];
      expect(found).toHaveLength(2);
      return found;
    });
    expect(rows.map((row) => row.querySelector('.notebook-name')?.textContent)).toEqual(['eval.ipynb', 'train.ipynb']);
    expect(rows[1]?.textContent).toContain('Watching · 2 of 3 restarts used');
    expect(rows[0]?.textContent).toContain('Not guarded · 0 of 5 restarts used');
    expect(rows[1]?.textContent).toContain('Last 12 hours: no failures, no restarts');

    await click(getByRole(root, 'button', 'Reset counter of train.ipynb'));
    await waitFor(() => expect(root.querySelector('.notebook-row:last-child')?.textContent).toContain('0 of 3'));
    expect(worker.sent.at(-1)).toEqual({ type: 'ui-command', key: KEY, command: { type: 'reset-counter' } });

    const on = getByRole<HTMLInputElement>(root, 'switch', 'Auto-restart train.ipynb');
    expect(on.checked).toBe(true);
    await click(on);
    await waitFor(() =>
      expect((root.querySelector('.notebook-row:last-child') as HTMLElement).dataset.state).toBe('off'),
    );
    expect(worker.sent.at(-1)).toEqual({
      type: 'ui-command',
      key: KEY,
      command: { type: 'set-enabled', enabled: false },
    });
    expect(await loadAllNotebooks()).toContainEqual(expect.objectContaining({ key: KEY, enabled: false }));
  });

  it('says how to start when there is none, and shows a notebook switched on elsewhere', async () => {
    const root = await open();
    await waitFor(() => getByText(root, /^None yet\. Open a notebook in Colab/));
    await storeNotebook(KEY, { title: 'later.ipynb', enabled: true });
    await waitFor(() => getByRole(root, 'switch', 'Auto-restart later.ipynb'));
  });

  it('shows a refused command next to the notebook and puts its switch back', async () => {
    await storeNotebook(KEY, { title: 'train.ipynb', enabled: true });
    worker.override((message) =>
      message.type === 'ui-command' ? { ok: false, why: { kind: 'cannot-cancel' } } : undefined,
    );
    const root = await open();
    const on = await waitFor(() => getByRole<HTMLInputElement>(root, 'switch', 'Auto-restart train.ipynb'));
    await click(on);
    await waitFor(() =>
      expect(getByRole(root, 'alert').textContent).toBe('The restart has already started and cannot be cancelled'),
    );
    expect(on.checked).toBe(true);
  });
});

describe('custom patterns', () => {
  it('refuses a pattern that does not compile, naming the line, and saves nothing', async () => {
    const root = await open();
    const box = getByRole<HTMLTextAreaElement>(root, 'textbox', 'Your failure patterns');
    await type(box, 'MyError: out of budget\n\n(unclosed', false);
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(getByText(root, 'Line 3: This is not a valid regular expression: a ( has no matching ).')).toBeTruthy();

    await click(getByRole(root, 'button', 'Save failure patterns'));
    expect(getByRole(root, 'alert').textContent).toBe('Not saved: fix the lines listed above first.');
    expect(worker.sent).toHaveLength(0);
    expect((await loadSettings()).failurePatterns).toEqual([]);

    await type(box, 'MyError: out of budget\n/retry me/i', false);
    expect(box.getAttribute('aria-invalid')).toBe('false');
    await click(getByRole(root, 'button', 'Save failure patterns'));
    await waitFor(() => expect(getByText(root, 'Saved (2 patterns).')).toBeTruthy());
    expect((await loadSettings()).failurePatterns).toEqual(['MyError: out of budget', '/retry me/i']);
  });

  it('refuses syntax RE2 leaves out, saying what to write instead', async () => {
    const root = await open();
    const box = getByRole<HTMLTextAreaElement>(root, 'textbox', 'Your restart markers');
    await type(box, 'ok\n^(?=.*done)restart', false);
    expect(getByText(root, /^Line 2: Lookahead like \(\?=…\) or \(\?!…\) is not supported/)).toBeTruthy();
    await click(getByRole(root, 'button', 'Save restart markers'));
    expect(worker.sent).toHaveLength(0);
  });

  it('keeps saved patterns this version refuses, says they are not in use and why, and saves once fixed', async () => {
    await fakeBrowser.storage.local.set({
      settings: { ...defaultSettings(), failurePatterns: ['ok', '(a)\\1', '\\u00e9t\\u00e9'] },
    });
    const root = await open();
    const box = getByRole<HTMLTextAreaElement>(root, 'textbox', 'Your failure patterns');
    const notice = /^Not in use: 2 of the saved patterns are refused by this version/;
    await waitFor(() => expect(getByText(root, notice)).toBeTruthy());
    expect(box.value).toBe('ok\n(a)\\1\n\\u00e9t\\u00e9');
    expect(getByText(root, /^Line 2: Backreferences like \\1/)).toBeTruthy();
    expect(getByText(root, 'Line 3: Write a Unicode character as \\x{00e9}, not \\u00e9 or \\u{e9}.')).toBeTruthy();

    await type(box, 'ok\n\\x{e9}t\\x{e9}', false);
    await click(getByRole(root, 'button', 'Save failure patterns'));
    await waitFor(() => expect(getByText(root, 'Saved (2 patterns).')).toBeTruthy());
    expect((await loadSettings()).failurePatterns).toEqual(['ok', '\\x{e9}t\\x{e9}']);
    expect(root.textContent).not.toMatch(notice);
  });

  it('shows the service worker refusing patterns', async () => {
    worker.override(() => ({
      ok: false,
      why: { kind: 'invalid-setting', path: 'failurePatterns', detail: 'too many' },
    }));
    const root = await open();
    await type(getByRole<HTMLTextAreaElement>(root, 'textbox', 'Your failure patterns'), 'x+y', false);
    await click(getByRole(root, 'button', 'Save failure patterns'));
    await waitFor(() => expect(getByRole(root, 'alert').textContent).toBe('Invalid setting failurePatterns: too many'));
  });
});

describe('Test an output', () => {
  const verdict = (root: HTMLElement) => root.querySelector('#tester-verdict')!;

  it('says what the guard would do, as information: the kind and the line, never the rule id', async () => {
    const root = await open();
    const box = getByRole<HTMLTextAreaElement>(root, 'textbox', 'Test an output');
    expect(verdict(root).getAttribute('role')).toBe('status');
    expect(queryAllByRole(root, 'alert')).toHaveLength(0);

    await type(box, CUDA_OOM, false);
    expect(verdict(root).querySelector('.verdict-headline')?.textContent).toBe(
      'Would restart: PyTorch CUDA out of memory',
    );
    expect(verdict(root).textContent).toContain('GPU out of memory. Matched line: torch.OutOfMemoryError: CUDA out');
    // The rule's id is for Copy diagnostics, not for people.
    expect(verdict(root).textContent).not.toContain('torch-cuda-oom');
    // Information, not an error: no error look, no alert.
    expect(verdict(root).className).not.toMatch(/error|restart/);
    expect(queryAllByRole(root, 'alert')).toHaveLength(0);

    await type(box, 'ValueError: shapes (3,4) and (5,6) not aligned', false);
    expect(verdict(root).textContent).toBe(
      'Would not restartNo built-in rule and none of your patterns match this text.',
    );

    await type(box, 'Your session crashed after using all available RAM.', false);
    expect(verdict(root).querySelector('.verdict-headline')?.textContent).toBe(
      'Would restart: Colab session crashed after using all available RAM',
    );
    expect(verdict(root).textContent).toContain("Colab's RAM crash. Matched line:");
  });

  it('uses the patterns as typed, markers included', async () => {
    const root = await open();
    await type(getByRole<HTMLTextAreaElement>(root, 'textbox', 'Your restart markers'), 'FRESH RUNTIME PLEASE', false);
    await type(
      getByRole<HTMLTextAreaElement>(root, 'textbox', 'Test an output'),
      'epoch 3 done\nFRESH RUNTIME PLEASE',
      false,
    );
    expect(verdict(root).textContent).toBe(
      'Would restart: your restart markerPattern FRESH RUNTIME PLEASE. Matched line: FRESH RUNTIME PLEASE',
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
    await waitFor(() => expect(getByText(root, 'Imported backup.json: settings and 1 notebook.')).toBeTruthy());
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
    await waitFor(() => expect(getByText(root, 'Exported settings and 1 notebook.')).toBeTruthy());
    expect(clicks).toHaveBeenCalledOnce();
    const exported = JSON.parse(await created[0]!.text());
    expect(exported).toMatchObject({ format: 'colab-oom-guard', notebooks: [{ key: KEY, enabled: true }] });
  });

  it('leaves the heartbeat and alert URLs out of the export and Copy diagnostics (ping URLs are secret)', async () => {
    await storeNotebook(KEY, { enabled: true });
    await fakeBrowser.storage.local.set({
      heartbeat: { v: 1, url: HEARTBEAT, everyMinutes: 5 },
      alerts: { v: 2, url: 'https://ntfy.sh/night-runs-7f3a', kind: 'ntfy' },
    });
    const created: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      created.push(blob as Blob);
      return 'blob:test';
    });
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    vi.spyOn(fakeBrowser.i18n, 'getUILanguage').mockReturnValue('en-US');
    const copied: string[] = [];
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: { writeText: async (text: string) => void copied.push(text) },
    });
    const root = await open();
    await click(getByRole(root, 'button', 'Export settings and history (JSON)'));
    await waitFor(() => expect(created).toHaveLength(1));
    await click(getByRole(root, 'button', 'Copy diagnostics'));
    await waitFor(() => expect(copied).toHaveLength(1));
    const exported = await created[0]!.text();
    expect(exported).toContain(KEY);
    expect(copied[0]).toContain('Alerts: ntfy');
    for (const text of [exported, copied[0]!]) {
      expect(text).not.toMatch(/hc-ping|5f2c1a3e|ntfy\.sh|night-runs/);
    }
  });

  it('Restore defaults asks first, then resets every setting and keeps the notebooks and their history', async () => {
    const history = [{ at: Date.now() - 60_000, type: 'enabled' as const }];
    await storeNotebook(KEY, { title: 'kept.ipynb', enabled: true, loopCount: 1, history });
    await fakeBrowser.storage.local.set({
      settings: {
        ...defaultSettings(),
        maxRestarts: 9,
        failurePatterns: ['MyError'],
        categories: { ...DEFAULT_CATEGORIES, 'gpu-fault': true },
      },
    });
    const root = await open();
    await waitFor(() => expect(textbox(root, 'Max restarts in a row').value).toBe('9'));
    await click(getByRole(root, 'button', 'Restore defaults…'));
    expect(document.activeElement?.textContent).toBe('Keep my settings');
    expect(worker.sent).toEqual([]);
    await click(getByRole(root, 'button', 'Restore defaults'));
    await waitFor(() => getByText(root, 'Settings are back to their defaults. Notebooks and their history were kept.'));
    expect(await loadSettings()).toEqual(defaultSettings());
    expect(await loadAllNotebooks()).toMatchObject([{ key: KEY, title: 'kept.ipynb', enabled: true, history }]);
    await waitFor(() => expect(textbox(root, 'Max restarts in a row').value).toBe('3'));
    expect(getByRole<HTMLTextAreaElement>(root, 'textbox', 'Your failure patterns').value).toBe('');
    expect(document.activeElement?.textContent).toBe('Restore defaults…');
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
    expect(result).toMatchObject({ restart: false, headline: 'Would not restart' });
    expect(result?.detail).toMatch(/^This is “.+”, but the failure kind “GPU out of memory” is switched off above\.$/);
  });

  it("runs the user's patterns on the page's engine: V8's slowest patterns answer on hostile output", () => {
    const patterns = ['(a|aa)+$', '(\\w|\\d)+$', '(a+){2,60}$', '(.*?,){11}P', '.*.*.*x'];
    const config = { categories: DEFAULT_CATEGORIES, failurePatterns: patterns, markerPatterns: patterns };
    const hostile = Array.from({ length: MAX_USER_LINES }, (_, i) =>
      i % 2 ? `${'a'.repeat(MAX_USER_LINE_CHARS - 1)}!` : `P${','.repeat(MAX_USER_LINE_CHARS - 1)}`,
    ).join('\n');
    expect(testText(hostile, config)).toEqual({
      restart: false,
      headline: 'Would not restart',
      detail: 'No built-in rule and none of your patterns match this text.',
    });
    expect(testText(`${hostile}\n${','.repeat(11)}P!`, config)).toEqual({
      restart: true,
      headline: 'Would restart: Your failure pattern (.*?,){11}P',
      detail: `One of your failure patterns. Matched line: ${','.repeat(11)}P!`,
    });
  });
});
