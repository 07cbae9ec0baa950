export { openDatabase, migrate, countRows, type Migration, type OpenOptions } from './open';
export { stateMigrations } from './migrations/index';
import path from 'node:path';
import { openDatabase } from './open';
import { stateMigrations } from './migrations/index';

export const stateDbPath = (dataDir: string) => path.join(dataDir, 'state.db');
export const indexDbPath = (dataDir: string) => path.join(dataDir, 'index.db');

export function openStateDb(dataDir: string) {
  return openDatabase(stateDbPath(dataDir), { migrations: stateMigrations });
}
