import type { Migration } from '../open';

/**
 * The MCP router (seed 001, single-user): adapters say how to reach a server, route rules say
 * what goes where, distributions log every attempt. Adapter env/header values that are secret
 * are stored sealed by the platform's SecretBox (the JSON holds `sealed`, never `value`).
 */
export const m004Router: Migration = {
  version: 4,
  name: 'router adapters, routes, distributions',
  up(db) {
    db.exec(`
      CREATE TABLE mcp_adapters (
        id             TEXT PRIMARY KEY,
        name           TEXT NOT NULL UNIQUE,
        transport      TEXT NOT NULL CHECK (transport IN ('stdio', 'http')),
        command        TEXT,
        args           TEXT NOT NULL DEFAULT '[]',
        env            TEXT NOT NULL DEFAULT '[]',
        url            TEXT,
        headers        TEXT NOT NULL DEFAULT '[]',
        idle_timeout_s REAL NOT NULL DEFAULT 300 CHECK (idle_timeout_s > 0),
        max_retries    INTEGER NOT NULL DEFAULT 3 CHECK (max_retries BETWEEN 0 AND 10),
        call_timeout_s REAL NOT NULL DEFAULT 60 CHECK (call_timeout_s > 0),
        created_at     TEXT NOT NULL,
        updated_at     TEXT NOT NULL,
        CHECK ((transport = 'stdio' AND command IS NOT NULL) OR (transport = 'http' AND url IS NOT NULL))
      );

      CREATE TABLE route_rules (
        id                      TEXT PRIMARY KEY,
        name                    TEXT NOT NULL,
        enabled                 INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
        priority                INTEGER NOT NULL DEFAULT 0,
        trigger_conditions      TEXT NOT NULL,
        adapter_id              TEXT NOT NULL REFERENCES mcp_adapters(id) ON DELETE RESTRICT,
        target_tool_name        TEXT NOT NULL,
        mapper                  TEXT NOT NULL DEFAULT 'template' CHECK (mapper IN ('template', 'llm')),
        mapping                 TEXT,
        processing_instructions TEXT NOT NULL DEFAULT '',
        allow_fallback          INTEGER NOT NULL DEFAULT 0 CHECK (allow_fallback IN (0, 1)),
        tool_schema_cache       TEXT,
        tool_schema_hash        TEXT,
        created_at              TEXT NOT NULL,
        updated_at              TEXT NOT NULL
      );
      CREATE INDEX route_rules_order ON route_rules (enabled, priority DESC, created_at);

      CREATE TABLE distributions (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        run_id      TEXT NOT NULL,
        item_key    TEXT NOT NULL,
        item_title  TEXT NOT NULL,
        route_id    TEXT REFERENCES route_rules(id) ON DELETE SET NULL,
        route_name  TEXT,
        adapter_id  TEXT REFERENCES mcp_adapters(id) ON DELETE SET NULL,
        tool        TEXT,
        attempt     INTEGER NOT NULL DEFAULT 1,
        status      TEXT NOT NULL CHECK (status IN ('ok', 'error', 'skipped')),
        retryable   INTEGER NOT NULL DEFAULT 0,
        args        TEXT,
        result      TEXT,
        error       TEXT,
        duration_ms INTEGER NOT NULL DEFAULT 0,
        created_at  TEXT NOT NULL
      );
      CREATE INDEX distributions_recent ON distributions (created_at DESC, id DESC);
      CREATE INDEX distributions_route ON distributions (route_id, created_at DESC);
      CREATE INDEX distributions_run ON distributions (run_id);
    `);
  },
};
