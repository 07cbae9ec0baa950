import { childMain } from './crash-harness';

await childMain(process.argv.slice(2));
