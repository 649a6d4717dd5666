import { render } from 'preact';
import { t } from '../lib/i18n';
import { app } from '../ui/app-root';
import { Welcome } from './Welcome';

document.title = t('welcomeTitle');
render(<Welcome />, app());
