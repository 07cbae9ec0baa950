import { generateMbox } from '../_scale-gen';
generateMbox('/tmp/h-scale3/o1/m.mbox', Number(process.argv[2] ?? 2000));
