import { startPage } from '../ui/start-page';
import { Options } from './Options';

startPage('optionsTitle', <Options />);
