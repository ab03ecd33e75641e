import { render } from 'preact';
import { App } from './app.js';

// The console's entry (bundled by scripts/build-console.js into /console/assets/).

render(<App />, document.getElementById('app')!);
