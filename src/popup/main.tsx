import { render } from 'preact';
import { Popup } from './Popup';

render(<Popup search={location.search} />, document.getElementById('app')!);
