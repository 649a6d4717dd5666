import browser from 'webextension-polyfill';
import { t } from '../lib/i18n';
import { LINKS, WELCOME_PAGE } from '../ui/links';

/** The version and where to read more: the user guide, troubleshooting, what changed. */
export function About() {
  return (
    <p class="about">
      <span>{t('optionsVersion', browser.runtime.getManifest().version)}</span>
      <a href={LINKS.guide} target="_blank" rel="noreferrer">
        {t('linkReadme')}
      </a>
      <a href={LINKS.troubleshooting} target="_blank" rel="noreferrer">
        {t('linkTroubleshooting')}
      </a>
      <a href={LINKS.changelog} target="_blank" rel="noreferrer">
        {t('linkChangelog')}
      </a>
      <a href={browser.runtime.getURL(WELCOME_PAGE)} target="_blank" rel="noreferrer">
        {t('linkWelcome')}
      </a>
    </p>
  );
}
