import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authProxy, conformanceInstalled, runConformance, stdioGateway, type Gateway, type ScenarioResult } from '../../helpers/conformance';
import { startTestOwner, type TestOwner } from '../../helpers/owner';

/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, a devDependency; no
 * network needed) against a real owner. Its 8 general server scenarios — the others need the
 * suite's own fixture tools/prompts/resources (test_simple_text, test_prompt_with_image, …) —
 * must all pass over Streamable HTTP. Through the stdio server (`mailroom mcp`, relayed by the
 * test's stdioGateway) every one that applies must pass: all but dns-rebinding-protection, which
 * tests an HTTP server's Host/Origin check (stdio has neither; the relay is test code).
 */
const GENERAL = ['server-initialize', 'logging-set-level', 'ping', 'completion-complete', 'tools-list', 'resources-list', 'prompts-list', 'dns-rebinding-protection'];
const THROUGH_STDIO = ['server-initialize', 'logging-set-level', 'ping', 'completion-complete', 'tools-list', 'resources-list', 'prompts-list'];

const summary = (rs: ScenarioResult[]) => rs.map((r) => `${r.scenario}: ${r.failed ? 'FAIL ' + JSON.stringify(r.failures) : 'ok'}`).join('\n');

describe.skipIf(!conformanceInstalled())('official MCP conformance suite', () => {
  let owner: TestOwner;
  const gateways: Gateway[] = [];
  beforeAll(async () => {
    owner = await startTestOwner();
    await owner.api('POST', '/api/mail/inboxes', { id: 'support', address: 'support@acme.test' });
  });
  afterAll(async () => {
    await Promise.allSettled(gateways.map((g) => g.close()));
    await owner?.close();
  });

  it('passes all 8 general server scenarios over Streamable HTTP', async () => {
    const gw = await authProxy(owner.url, owner.token);
    gateways.push(gw);
    const results = await runConformance(gw.url, GENERAL);
    expect(results.filter((r) => r.failed === 0 && r.passed > 0).map((r) => r.scenario), summary(results)).toEqual(GENERAL);
  }, 240_000);

  it('passes the 7 that apply through the stdio server (mailroom mcp)', async () => {
    const gw = await stdioGateway(owner.dataDir, owner.vaultDir);
    gateways.push(gw);
    const results = await runConformance(gw.url, THROUGH_STDIO);
    expect(results.filter((r) => r.failed === 0 && r.passed > 0).map((r) => r.scenario), summary(results)).toEqual(THROUGH_STDIO);
  }, 240_000);
});
