import { render } from 'preact';
import { t } from '../lib/i18n';
import { app } from '../ui/app-root';
import { Popup } from './Popup';

document.title = t('extName');
render(<Popup search={location.search} />, app());
