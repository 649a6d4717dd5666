import { render } from 'preact';
import { fallBackToEnglish } from '../lib/english-fallback';
import { t } from '../lib/i18n';
import { app } from '../ui/app-root';
import { Popup } from './Popup';

fallBackToEnglish();
document.title = t('extName');
render(<Popup search={location.search} />, app());
