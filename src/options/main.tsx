import { render } from 'preact';
render(<p>Colab OOM Guard</p>, document.getElementById('app')!);
