#!/usr/bin/env node
// The `storefront` command. The TypeScript sources are compiled by `npm install` (prepare).
import { main } from '../dist/src/cli/main.js';

await main(process.argv.slice(2));
