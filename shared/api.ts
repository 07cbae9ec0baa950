/** Kept for existing imports: the contracts live in shared/contract/. */
export { HUB_PATH, HubEvent, HubMethod, MCP_PATH, type HealthDto, type InfoDto, type ConnectSnippetDto, type IndexProgressDto, type StatusDto } from './contract';
