import type { Migration } from '../open';
import { m001Core } from './001_core';

/**
 * The state DB's migrations, in order. One numbered file per migration; never edit one that
 * has shipped — add the next number. Each has a test that runs it on a DB at the previous version.
 */
export const stateMigrations: Migration[] = [m001Core];
