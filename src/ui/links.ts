import { repository } from '../../package.json';

/**
 * Where the user guide, troubleshooting and the changelog live: the repository's own files, at the address
 * package.json names (one place; the extension makes no requests itself, these are links the user follows).
 */
const REPO = repository.url.replace(/^git\+/, '').replace(/\.git$/, '');

export const LINKS = {
  readme: `${REPO}#readme`,
  troubleshooting: `${REPO}#troubleshooting`,
  changelog: `${REPO}/blob/main/CHANGELOG.md`,
} as const;

/** The welcome page, opened once on install (background/welcome.ts) and linked from the options page. */
export const WELCOME_PAGE = 'src/welcome/index.html';
