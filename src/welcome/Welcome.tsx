import browser from 'webextension-polyfill';
import { type MessageKey, t, tn } from '../lib/i18n';
import { useSettings } from '../ui/hooks';
import { LINKS } from '../ui/links';

/** Opened once, on install (background/welcome.ts): what the guard does, five steps to a guarded night, and links. */

const STEPS: MessageKey[] = ['welcomeStep1', 'welcomeStep2', 'welcomeStep3', 'welcomeStep4', 'welcomeStep5'];
const WARNINGS: MessageKey[] = ['welcomeWarningResume', 'welcomeWarningAwake', 'welcomeWarningNotCaught'];

export function Welcome() {
  const settings = useSettings().value;
  return (
    <main class="welcome">
      <header>
        <img src={browser.runtime.getURL('icons/icon-128.png')} width={64} height={64} alt="" />
        <div>
          <h1>{t('welcomeTitle')}</h1>
          <p class="muted">{t('optionsVersion', browser.runtime.getManifest().version)}</p>
        </div>
      </header>
      <p class="lead">{t('welcomeIntro')}</p>
      {settings && (
        <p>
          {t(
            'welcomeLimits',
            tn('countRestarts', settings.maxRestarts, settings.maxRestarts),
            settings.backoffBaseSec,
            tn('welcomeMinutes', settings.healthyMinutes, settings.healthyMinutes),
          )}
        </p>
      )}

      <section class="card" aria-labelledby="quick-start">
        <h2 id="quick-start">{t('welcomeQuickStart')}</h2>
        <ol class="steps">
          {STEPS.map((key) => (
            <li key={key}>{t(key)}</li>
          ))}
        </ol>
      </section>

      <section class="card" aria-labelledby="check-ui">
        <h2 id="check-ui">{t('welcomeCheckTitle')}</h2>
        <p>{t('welcomeCheckBody')}</p>
      </section>

      <section class="card" aria-labelledby="good-to-know">
        <h2 id="good-to-know">{t('welcomeWarningsTitle')}</h2>
        <ul>
          {WARNINGS.map((key) => (
            <li key={key}>{t(key)}</li>
          ))}
        </ul>
      </section>

      <nav class="card" aria-labelledby="more">
        <h2 id="more">{t('welcomeMore')}</h2>
        <ul class="links">
          <li>
            <a href={LINKS.guide} target="_blank" rel="noreferrer">
              {t('linkReadme')}
            </a>
          </li>
          <li>
            <a href={LINKS.troubleshooting} target="_blank" rel="noreferrer">
              {t('linkTroubleshooting')}
            </a>
          </li>
          <li>
            <a href={LINKS.changelog} target="_blank" rel="noreferrer">
              {t('linkChangelog')}
            </a>
          </li>
          <li>
            <a
              href={browser.runtime.getURL('src/options/index.html')}
              onClick={(event) => {
                event.preventDefault();
                void browser.runtime.openOptionsPage();
              }}
            >
              {t('linkOptions')}
            </a>
          </li>
        </ul>
      </nav>
    </main>
  );
}
