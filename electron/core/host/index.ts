export { resolveConfig, VERSION, defaultDataDir, type Config, type ConfigInput } from './config';
export { createCore, type Core, type CoreOptions } from './core';
export { startOwner, OwnerRunningError, defaultStaticDir, type Owner, type OwnerOptions } from './owner';
export { findOwner, readLock, ensureToken, pidAlive, type RunningOwner } from './lock';
export { connectClaudeDesktop, connectClaudeCode, connectSnippet, claudeDesktopConfigPath, mcpEntry, mergeMcpServer } from './connect';
export { keyFileSecretBox } from './secrets';
export { headlessPlatform } from './platform';
