import { readFileSync } from 'node:fs';
import { printRun, printTargets } from './report.js';

// `node dist/bench/show.js bench/results/<run>.json`: the tables of a saved run again (also
// of a run that was stopped part way, since the bench saves after every step).
const run = JSON.parse(readFileSync(process.argv[2], 'utf8'));
printRun(run);
process.stdout.write('\n');
printTargets(run);
