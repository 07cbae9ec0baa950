import { generateVault } from '../_scale-gen';
generateVault('/tmp/h-scale3/o1/v', Number(process.argv[2] ?? 2000));
