import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { notebookKeyFromUrl, pageNotebookKey } from './notebook-key';
import { notebookTitleFromDocumentTitle } from './notebook-title';
import { NotebookKeySchema } from './schema';
import { isScratchKey, isScratchUrl, urlShowsNotebook } from './scratch';

const C = 'https://colab.research.google.com';
const DRIVE_ID = '1AbCdEfGhIjKlMnOpQrStUvWxYz012345';

describe('notebookKeyFromUrl', () => {
  it.each([
    // Drive
    [`${C}/drive/${DRIVE_ID}`, `drive:${DRIVE_ID}`],
    [`${C}/drive/${DRIVE_ID}#scrollTo=T2BNeFUZ1OGZ`, `drive:${DRIVE_ID}`],
    [`${C}/drive/${DRIVE_ID}?authuser=1`, `drive:${DRIVE_ID}`],
    [`${C}/drive/${DRIVE_ID}?usp=sharing`, `drive:${DRIVE_ID}`],
    [`${C}/drive/${DRIVE_ID}?authuser=2&usp=sharing#scrollTo=abc`, `drive:${DRIVE_ID}`],
    [`${C}/drive/${DRIVE_ID}?sandboxMode=true`, `drive:${DRIVE_ID}`],
    [`${C}/drive/${DRIVE_ID}#notebook-main`, `drive:${DRIVE_ID}`],
    [`${C}/drive/${DRIVE_ID}/`, `drive:${DRIVE_ID}`],
    [`${C}//drive//${DRIVE_ID}//`, `drive:${DRIVE_ID}`],
    [`https://COLAB.research.google.com:443/drive/${DRIVE_ID}`, `drive:${DRIVE_ID}`],
    [`${C}/drive/short_id-1`, 'drive:short_id-1'],
    // GitHub
    [
      `${C}/github/googlecolab/colabtools/blob/main/notebooks/colab-github-demo.ipynb`,
      'github:googlecolab/colabtools/main/notebooks/colab-github-demo',
    ],
    [`${C}/github/GoogleColab/ColabTools/blob/main/nb.ipynb`, 'github:googlecolab/colabtools/main/nb'],
    [`${C}/github/o/r/blob/main/Nb.ipynb?authuser=1#scrollTo=x`, 'github:o/r/main/Nb'],
    [`${C}/github/o/r/blob/feature/x/dir/nb.ipynb`, 'github:o/r/feature/x/dir/nb'],
    [`${C}/github/o/r/blob/0123abc/nb.ipynb/`, 'github:o/r/0123abc/nb'],
    [`${C}/github/o/r/blob/main/my%20notebook.ipynb`, 'github:o/r/main/my notebook'],
    [`${C}/github/o/r/blob/main/my notebook.ipynb`, 'github:o/r/main/my notebook'],
    [`${C}/github/o/r/blob/main/%C3%BCber.ipynb`, 'github:o/r/main/über'],
    [`${C}/github/o/r/blob/main/%c3%bcber.ipynb`, 'github:o/r/main/über'],
    [`${C}/github/o/r/blob/main/über.ipynb`, 'github:o/r/main/über'],
    // Gist
    [`${C}/gist/someone/0123456789abcdef0123`, 'gist:0123456789abcdef0123'],
    [`${C}/gist/someone/0123456789abcdef0123/train.ipynb`, 'gist:0123456789abcdef0123/train'],
    [`${C}/gist/someone/0123456789abcdef0123/train.ipynb?authuser=0#scrollTo=a`, 'gist:0123456789abcdef0123/train'],
    [`${C}/gist/someone/0123456789abcdef0123/`, 'gist:0123456789abcdef0123'],
    // Bundled and local
    [`${C}/notebooks/intro.ipynb`, 'notebooks:intro'],
    [`${C}/notebooks/intro.ipynb#scrollTo=GJBs_flRovLc`, 'notebooks:intro'],
    [`${C}/notebooks/snippets/importing_libraries.ipynb`, 'notebooks:snippets/importing_libraries'],
    // By URL
    [`${C}/#fileId=https%3A%2F%2Fexample.com%2Fnb.ipynb`, 'url:https://example.com/nb.ipynb'],
    [`${C}/#fileId=https%3A%2F%2Fexample.com%2Fnb.ipynb&scrollTo=abc`, 'url:https://example.com/nb.ipynb'],
    [`${C}/#scrollTo=abc&fileId=https%3A%2F%2Fexample.com%2Fnb.ipynb`, 'url:https://example.com/nb.ipynb'],
    [`${C}/?authuser=1#fileId=https%3A%2F%2Fexample.com%2Fa%3Fx%3D1%26y%3D2`, 'url:https://example.com/a?x=1&y=2'],
    [`${C}#fileId=https%3A%2F%2Fexample.com%2Fnb.ipynb`, 'url:https://example.com/nb.ipynb'],
    [`${C}/notebook#fileId=${DRIVE_ID}`, `drive:${DRIVE_ID}`],
    [`${C}/notebook#fileId=${DRIVE_ID}&offline=true&sandboxMode=true`, `drive:${DRIVE_ID}`],
    [`${C}/notebook#fileId=${DRIVE_ID}&scrollTo=N1-2wPHN1Otn`, `drive:${DRIVE_ID}`],
    [`${C}/#fileId=https%3A//huggingface.co/u/m.ipynb`, 'url:https://huggingface.co/u/m.ipynb'],
    [`${C}/fileId=${DRIVE_ID}`, `drive:${DRIVE_ID}`],
    [`${C}/fileId=https%3A%2F%2Fexample.com%2Fnb.ipynb?authuser=1`, 'url:https://example.com/nb.ipynb'],
  ])('%s → %s', (url, key) => {
    expect(notebookKeyFromUrl(url)).toBe(key);
  });

  it.each([
    [`${C}/`],
    [C],
    [`${C}/#scrollTo=abc`],
    [`${C}/#fileId=`],
    [`${C}/drive/`],
    [`${C}/drive/${DRIVE_ID}/extra`],
    [`${C}/drive/not%20an%20id`],
    [`${C}/github/o/r`],
    [`${C}/github/o/r/tree/main/dir`],
    [`${C}/github/o/r/blob/main`],
    [`${C}/gist/someone`],
    [`${C}/notebooks/`],
    [`${C}/notebooks/.ipynb`],
    [`${C}/signup`],
    [`http://colab.research.google.com/drive/${DRIVE_ID}`],
    [`https://colab.google/drive/${DRIVE_ID}`],
    [`http://colab.google.com/drive/${DRIVE_ID}`],
    [`https://google.com/drive/${DRIVE_ID}`],
    [`https://research.google.com/drive/${DRIVE_ID}`],
    [`https://colab.google.com.evil.example/drive/${DRIVE_ID}`],
    [`https://x.colab.google.com/drive/${DRIVE_ID}`],
    [`https://evil.example/colab.research.google.com/drive/${DRIVE_ID}`],
    [`https://colab.research.google.com.evil.example/drive/${DRIVE_ID}`],
    [`https://abc-123.colab.googleusercontent.com/outputframe.html`],
    ['not a url'],
    [''],
  ])('%s → null', (url) => {
    expect(notebookKeyFromUrl(url)).toBeNull();
  });

  it('gives one key for all the ways to reach the same Drive notebook', () => {
    const urls = [
      `${C}/drive/${DRIVE_ID}`,
      `https://colab.google.com/drive/${DRIVE_ID}`,
      `https://colab.sandbox.google.com/drive/${DRIVE_ID}?authuser=1`,
      `${C}/drive/${DRIVE_ID}/?authuser=1`,
      `${C}/drive/${DRIVE_ID}?usp=sharing#scrollTo=x`,
      `${C}/drive/${DRIVE_ID}#notebook-main`,
    ];
    expect(new Set(urls.map(notebookKeyFromUrl))).toEqual(new Set([`drive:${DRIVE_ID}`]));
  });

  it.each([
    ['a #fileId= too long to store', `${C}/#fileId=https%3A%2F%2Fexample.com%2F${'a'.repeat(2100)}.ipynb`],
    ['a decoded control character', `${C}/github/%0Aowner/r/blob/main/nb.ipynb`],
    ['a decoded control character in a gist id', `${C}/gist/someone/%0D0123`],
    ['a decoded right-to-left override', `${C}/github/o/r/blob/main/%E2%80%AEbnpi.ipynb`],
    ['a decoded isolate in #fileId=', `${C}/#fileId=https%3A%2F%2Fexample.com%2F%E2%81%A6nb.ipynb`],
  ])('gives no key for %s (storage would refuse it)', (_, url) => {
    expect(notebookKeyFromUrl(url)).toBeNull();
  });

  it('gives only keys that storage accepts', () => {
    const urls = [
      `${C}/drive/${DRIVE_ID}`,
      `${C}/github/o/r/blob/main/nb.ipynb`,
      `${C}/#fileId=https%3A%2F%2Fexample.com%2Fnb.ipynb`,
    ];
    for (const url of urls) expect(v.is(NotebookKeySchema, notebookKeyFromUrl(url))).toBe(true);
  });

  it('keeps a malformed percent escape as written instead of failing', () => {
    expect(notebookKeyFromUrl(`${C}/github/o/r/blob/main/bad%E0%A4%A.ipynb`)).toBe('github:o/r/main/bad%E0%A4%A');
  });
});

describe('every address form, on every Colab domain, with any query and fragment', () => {
  const hosts = ['https://colab.research.google.com', 'https://colab.google.com', 'https://colab.sandbox.google.com'];
  const forms: Array<[string, string]> = [
    [`/drive/${DRIVE_ID}`, `drive:${DRIVE_ID}`],
    ['/github/Owner/Repo/blob/main/dir/train.ipynb', 'github:owner/repo/main/dir/train'],
    ['/gist/someone/0123456789abcdef0123/train.ipynb', 'gist:0123456789abcdef0123/train'],
    ['/gist/someone/0123456789abcdef0123', 'gist:0123456789abcdef0123'],
    ['/notebooks/intro.ipynb', 'notebooks:intro'],
    [`/#fileId=${DRIVE_ID}`, `drive:${DRIVE_ID}`],
    ['/#fileId=https%3A%2F%2Fexample.com%2Fnb.ipynb', 'url:https://example.com/nb.ipynb'],
    [`/fileId=${DRIVE_ID}`, `drive:${DRIVE_ID}`],
  ];
  // §12.2 and the query strings Colab's links carry: none of them names another notebook.
  const queries = ['', '?authuser=1', '?hl=pt-BR', '?hl=ja&authuser=2', '?dbu=%2Ftun%2Fm%2Fabc', '?usp=sharing'];
  const fragments = [
    '',
    '#scrollTo=T2BNeFUZ1OGZ',
    '#mcpProxyToken=tok123&mcpProxyPort=8765',
    '#datalabBackendUrl=https://host.example/tun/m/abc',
    '#create=true',
  ];

  for (const [path, key] of forms) {
    it(`${path} is ${key} whatever the host, query and fragment`, () => {
      for (const host of hosts) {
        for (const query of queries) {
          for (const fragment of fragments) {
            // A fileId= form keeps its own fragment: the others' parts follow it.
            const [base, own] = path.split('#');
            const hash = own === undefined ? fragment : `#${own}${fragment.replace('#', '&')}`;
            expect(notebookKeyFromUrl(`${host}${base}${query}${hash}`), `${host}${base}${query}${hash}`).toBe(key);
          }
        }
      }
    });
  }
});

describe('scratch notebooks (REFERENCE §12.2): a new notebook each time', () => {
  it.each([
    [`${C}/notebooks/empty.ipynb`],
    ['https://colab.google.com/notebooks/empty.ipynb#mcpProxyToken=tok&mcpProxyPort=8765'],
    [`${C}/notebooks/empty.ipynb?dbu=%2Ftun%2Fm%2Fep1#datalabBackendUrl=https://h.example/tun/m/ep1`],
    ['https://colab.sandbox.google.com/notebooks/empty.ipynb?hl=ja'],
    [`${C}/notebooks/empty.ipynb#create=true`],
    [`${C}/#create=true`],
    [`${C}/?authuser=1#create=true`],
    [`${C}/?hl=es#scrollTo=x&create=true`],
  ])('%s is a scratch notebook, with no key of its own', (url) => {
    expect(isScratchUrl(url)).toBe(true);
    expect(notebookKeyFromUrl(url)).toBeNull();
  });

  it.each([
    [`${C}/`],
    [`${C}/#scrollTo=x`],
    [`${C}/drive/${DRIVE_ID}#create=true`],
    [`${C}/notebooks/intro.ipynb`],
    [`${C}/notebooks/empty2.ipynb`],
    [`${C}/#fileId=${DRIVE_ID}&create=true`],
    [`https://colab.google/notebooks/empty.ipynb`],
  ])('%s is not', (url) => {
    expect(isScratchUrl(url)).toBe(false);
  });

  it('keys a scratch notebook by its tab and page document; other notebooks by their address', () => {
    const url = 'https://colab.google.com/notebooks/empty.ipynb#mcpProxyToken=t&mcpProxyPort=1';
    const mine = pageNotebookKey(url, '12-m3x9.4');
    expect(mine).toBe('scratch:12-m3x9.4');
    expect(pageNotebookKey(url, '12-m3x9.5')).not.toBe(mine);
    expect(pageNotebookKey(url, '13-m3x9.4')).not.toBe(mine);
    expect(pageNotebookKey(`${C}/drive/${DRIVE_ID}?hl=ja`, '12-m3x9.4')).toBe(`drive:${DRIVE_ID}`);
    expect(pageNotebookKey(`${C}/`, '12-m3x9.4')).toBeNull();
    expect(isScratchKey(mine!)).toBe(true);
    expect(v.is(NotebookKeySchema, mine)).toBe(true);
  });

  it('a scratch key is shown by any scratch address, another key only by its own', () => {
    expect(urlShowsNotebook(`${C}/notebooks/empty.ipynb`, 'scratch:3-abc')).toBe(true);
    expect(urlShowsNotebook(`${C}/drive/${DRIVE_ID}`, 'scratch:3-abc')).toBe(false);
    expect(urlShowsNotebook(`https://colab.google.com/drive/${DRIVE_ID}`, `drive:${DRIVE_ID}`)).toBe(true);
    expect(urlShowsNotebook(`${C}/notebooks/empty.ipynb`, 'notebooks:empty')).toBe(false);
  });
});

describe('notebookTitleFromDocumentTitle', () => {
  it.each([
    ['train.ipynb - Colab', 'train.ipynb'],
    ['Untitled0.ipynb - Colaboratory', 'Untitled0.ipynb'],
    ['  Fine-tune - LLaMA - Colab  ', 'Fine-tune - LLaMA'],
    ['report – Colab', 'report'],
    ['report | Google Colab', 'report'],
    ['学習ノートブック.ipynb', '学習ノートブック.ipynb'],
    ['Colab tricks.ipynb', 'Colab tricks.ipynb'],
    ['My Colab', 'My Colab'],
    ['Colab', ''],
    ['Google Colab', ''],
    ['Google Colaboratory', ''],
    ['', ''],
    ['   ', ''],
    ['\u202Egnp.ipynb\u202C - Colab', 'gnp.ipynb'],
    ['a\u0000b\u2067c\u200F.ipynb - Colab', 'abc.ipynb'],
  ])('%j → %j', (title, name) => {
    expect(notebookTitleFromDocumentTitle(title)).toBe(name);
  });

  it('caps very long titles', () => {
    expect(notebookTitleFromDocumentTitle(`${'x'.repeat(900)} - Colab`)).toHaveLength(500);
  });
});

describe('notebook keys at their edges (each notebook its own switch, counters and history)', () => {
  const ID25 = 'A'.repeat(25);
  it.each([
    [`${C}/drive/abc!def`, null],
    [`${C}/drive/abc%21def`, null],
    [`${C}/drive`, null],
    [`${C}/drive/${DRIVE_ID}/extra`, null],
    [`${C}/github`, null],
    [`${C}/github/owner`, null],
    [`${C}/github/owner/repo/tree/main/nb.ipynb`, null],
    [`${C}/gist`, null],
    [`${C}/gist/user`, null],
    [`${C}/gist/user/abc123/nb.ipynb`, 'gist:abc123/nb'],
    [`${C}/gist/user/abc123`, 'gist:abc123'],
    [`${C}/notebooks`, null],
    [`${C}/notebooks/intro.ipynb`, 'notebooks:intro'],
    [`${C}/notebooks/.ipynb`, null],
    [`${C}/somewhere/else`, null],
    [`${C}/#fileId=${ID25}`, `drive:${ID25}`],
    [`${C}/#fileId=%20${ID25}%20`, `drive:${ID25}`],
    [`${C}/#fileId=${'A'.repeat(24)}`, `url:${'A'.repeat(24)}`],
    [`${C}/#fileId=x%2F${ID25}`, `url:x/${ID25}`],
    [`${C}/#fileId=${ID25}%2Fx`, `url:${ID25}/x`],
    [`${C}/#fileId=%20%20`, null],
    [`${C}/#fileId=`, null],
    [`${C}/#scrollTo=x&fileId=${ID25}`, `drive:${ID25}`],
    [`${C}/#other=fileId=${ID25}`, null],
  ])('%s → %s', (url, key) => {
    expect(notebookKeyFromUrl(url)).toBe(key);
  });

  it.each([
    ['train.ipynb - Colab', 'train.ipynb'],
    ['  train.ipynb  |  Google Colaboratory  ', 'train.ipynb'],
    ['Colab notes - Colab', 'Colab notes'],
    ['Colab tips', 'Colab tips'],
    ['Intro - Colab basics.ipynb - Colab', 'Intro - Colab basics.ipynb'],
    ['my Colab', 'my Colab'],
    ['name-Colab', 'name-Colab'],
    ['Colab', ''],
    ['Google Colab', ''],
    ['  Colaboratory  ', ''],
  ])('the title %j names the notebook %j', (title, name) => {
    expect(notebookTitleFromDocumentTitle(title)).toBe(name);
  });
});

describe('notebook keys at the edges of the address forms', () => {
  it('drops .ipynb from bundled and GitHub notebooks, and keeps the folders of a gist file', () => {
    expect(notebookKeyFromUrl(`${C}/notebooks/intro.ipynb`)).toBe('notebooks:intro');
    expect(notebookKeyFromUrl(`${C}/github/Owner/Repo/blob/main/a.ipynb`)).toBe('github:owner/repo/main/a');
    expect(notebookKeyFromUrl(`${C}/gist/user/abc123/dir/train.ipynb`)).toBe('gist:abc123/dir/train');
    expect(notebookKeyFromUrl(`${C}/github/o/r/blob/main/notebook`)).toBe('github:o/r/main/notebook');
  });

  it('a fileId path with more after it, or a new notebook away from the root, is no notebook', () => {
    expect(notebookKeyFromUrl(`${C}/fileId=${DRIVE_ID}/more`)).toBeNull();
    expect(pageNotebookKey(`${C}/somewhere#create=true`, '7-1')).toBeNull();
    expect(pageNotebookKey(`${C}/#create=true`, '7-1')).toBe('scratch:7-1');
  });
});
