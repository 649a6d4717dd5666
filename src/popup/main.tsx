import { startPage } from '../ui/start-page';
import { Popup } from './Popup';

startPage('extName', <Popup search={location.search} />);
