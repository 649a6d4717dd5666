import { render } from 'preact';
import { fallBackToEnglish } from '../lib/english-fallback';
import { t } from '../lib/i18n';
import { app } from '../ui/app-root';
import { Options } from './Options';

fallBackToEnglish();
document.title = t('optionsTitle');
render(<Options />, app());
