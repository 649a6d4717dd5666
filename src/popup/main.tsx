import { render } from 'preact';
import { t } from '../lib/i18n';
import { Popup } from './Popup';

document.title = t('extName');
render(<Popup search={location.search} />, document.getElementById('app')!);
