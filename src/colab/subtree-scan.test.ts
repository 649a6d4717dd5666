// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mount, snippet } from '../../test/support/colab-dom';
import type { CellWatcher } from './cell-watcher';
import type { ConnectWatcher } from './connect-watcher';
import type { DialogWatcher } from './dialog-watcher';
import type { OutputWatcher } from './output-watcher';
import { scanSubtrees, type Watchers } from './subtree-scan';
import type { ToastWatcher } from './toast-watcher';
import type { Batch } from './watch-context';

const ID = 'T2BNeFUZ1OGZ';
let log: string[];
let batch: Batch;
let wantAll: boolean;

const nameOf = (el: Element) => (el.id ? `#${el.id}` : el.className ? `.${el.className.split(' ')[0]}` : el.localName);

/** Watchers that log what the scan hands each of them. */
function loggingWatchers(): Watchers {
  const logs =
    (what: string) =>
    (el: Element): void => {
      log.push(`${what} ${nameOf(el)}`);
    };
  return {
    cells: {
      hookButton: logs('button'),
      cellChanged: logs('cell'),
      hookListed: logs('listed'),
    } as unknown as CellWatcher,
    outputs: {
      get wantAll() {
        return wantAll;
      },
      nothingIn: (renderer: Element) => !wantAll && !renderer.querySelector('.error'),
      report: logs('output'),
      frameAdded: logs('frame'),
    } as unknown as OutputWatcher,
    toasts: { hook: logs('toast') } as unknown as ToastWatcher,
    connect: { hook: logs('connect') } as unknown as ConnectWatcher,
    dialogs: { hook: logs('dialog') } as unknown as DialogWatcher,
  };
}

beforeEach(() => {
  log = [];
  batch = { number: 1, at: 0, initial: true };
  wantAll = false;
});

afterEach(() => {
  document.body.innerHTML = '';
});

describe('the subtree scan', () => {
  it('at the first look, goes through the cell list: each cell to the cell watcher, the rest searched whole', () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    mount(snippet('connect-button-connected-2026-03.html'));
    mount(snippet('snackbar-message-area-idle-2026-03.html'));
    mount('<mwc-dialog heading="Runtime disconnected"></mwc-dialog>');
    const list = document.querySelector('.notebook-cell-list')!;
    mount('<div class="not-a-cell"><mwc-dialog heading="x"></mwc-dialog></div>', list);
    scanSubtrees(batch, loggingWatchers()).firstLook(document.documentElement);
    expect(log).toContain(`listed #cell-${ID}`);
    expect(log).toContain('connect colab-connect-button');
    expect(log).toContain('toast #message-area');
    expect(log.filter((line) => line.startsWith('dialog'))).toHaveLength(2);
    // The cell's run button is the cell watcher's to find: not searched for here.
    expect(log.filter((line) => line.startsWith('button'))).toEqual([]);
    expect(log.filter((line) => line.startsWith('output'))).toEqual([]);
  });

  it('searches a page without a cell list whole, hooking every cell and run button', () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    document.querySelector('.notebook-cell-list')!.className = 'cells-of-another-layout';
    scanSubtrees(batch, loggingWatchers()).firstLook(document.documentElement);
    expect(log).toEqual([`cell #cell-${ID}`, 'button colab-run-button']);
  });

  it('once the page is shown, reports the error outputs of a subtree added, but none of a cell added with them', () => {
    const scan = scanSubtrees(batch, loggingWatchers());
    batch.initial = false;
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    const renderer = document.querySelector('colab-static-output-renderer > div')!;
    const [added] = mount('<div><div class="error output-id-4"><pre>MemoryError</pre></div></div>', renderer);
    scan.scan(added!);
    expect(log).toEqual(['output .error']);
    log.length = 0;
    scan.scan(document.getElementById(`cell-${ID}`)!);
    expect(log).toEqual([`cell #cell-${ID}`, 'button colab-run-button']);
  });

  it('looks into a renderer added by itself only when it may hold something to report; an iframe is a frame', () => {
    const scan = scanSubtrees(batch, loggingWatchers());
    batch.initial = false;
    const [plain] = mount('<colab-static-output-renderer><div class="stream">a</div></colab-static-output-renderer>');
    scan.scan(plain!);
    expect(log).toEqual([]);
    wantAll = true;
    scan.scan(plain!);
    expect(log).toEqual(['output .stream']);
    const [frame] = mount('<iframe></iframe>');
    scan.scan(frame!);
    expect(log.at(-1)).toBe('frame iframe');
  });

  it('holds what is inside the subtree scanned last, until the batch ends', () => {
    const scan = scanSubtrees(batch, loggingWatchers());
    const [root] = mount('<div><span></span></div>');
    const [other] = mount('<p></p>');
    expect(scan.holds(root!)).toBe(false);
    scan.scan(root!);
    expect(scan.holds(root!)).toBe(true);
    expect(scan.holds(root!.firstChild!)).toBe(true);
    expect(scan.holds(other!)).toBe(false);
    scan.forget();
    expect(scan.holds(root!)).toBe(false);
  });
});
