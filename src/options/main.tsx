import { render } from 'preact';
import { t } from '../lib/i18n';
import { app } from '../ui/app-root';
import { Options } from './Options';

document.title = t('optionsTitle');
render(<Options />, app());
