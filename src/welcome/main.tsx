import { startPage } from '../ui/start-page';
import { Welcome } from './Welcome';

startPage('welcomeTitle', <Welcome />);
