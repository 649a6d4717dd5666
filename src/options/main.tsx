import { render } from 'preact';
import { t } from '../lib/i18n';
import { Options } from './Options';

document.title = t('optionsTitle');
render(<Options />, document.getElementById('app')!);
