export * from './errors';
export * from './log';
export * from './types';
export * from './events';
export * from './clock';
export * from './tool';
export * from './fs';
