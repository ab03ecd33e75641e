import { render } from 'preact';
import { App } from './app.js';

// The console's entry (bundled by scripts/build-console.js into /console/assets/). The
// "Loading…" line of index.html goes first: Preact would otherwise keep it below the shell.

const root = document.getElementById('app')!;
root.textContent = '';
render(<App />, root);
