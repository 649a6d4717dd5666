import { render } from 'preact';
import { fallBackToEnglish } from '../lib/english-fallback';
import { t } from '../lib/i18n';
import { app } from '../ui/app-root';
import { Welcome } from './Welcome';

fallBackToEnglish();
document.title = t('welcomeTitle');
render(<Welcome />, app());
