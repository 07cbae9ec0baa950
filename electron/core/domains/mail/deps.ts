/**
 * What mail needs from other domains, typed structurally so mail builds and runs without them
 * (the composition root passes the real ones when they exist).
 */
export interface InboxSaveDep {
  save(input: { content: string; title?: string; processing_hints?: { category?: string; tags?: string[]; skip_inbox?: boolean } }): Promise<unknown> | unknown;
}

export interface MailRouteItem {
  /** The Mailroom route named by the triage taxonomy ("route:<name>" without the prefix). */
  route?: string;
  source: 'mail';
  title: string;
  content: string;
  metadata: Record<string, unknown>;
}

export interface RouterDep {
  routeItem(item: MailRouteItem, opts: { dryRun?: boolean }): Promise<unknown>;
}
