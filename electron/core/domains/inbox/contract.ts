/** The inbox's contract lives in shared/ (one definition for the owner, the renderer and MCP). */
export * from '../../../../shared/contract/inbox';
