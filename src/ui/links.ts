import { repository } from '../../package.json';

/**
 * Where the user guide, troubleshooting and the changelog live: the repository's own files, at the address
 * package.json names (one place; the extension makes no requests itself, these are links the user follows).
 */
export const REPO = repository.url.replace(/^git\+/, '').replace(/\.git$/, '');

/** A file of the repository, as its page on the main branch. */
const file = (path: string) => `${REPO}/blob/main/${path}`;

export const LINKS = {
  guide: file('docs/guide.md'),
  troubleshooting: file('docs/troubleshooting.md'),
  changelog: file('CHANGELOG.md'),
} as const;

/** The welcome page, opened once on install (background/welcome.ts) and linked from the options page. */
export const WELCOME_PAGE = 'src/welcome/index.html';
