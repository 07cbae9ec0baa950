import type { AnalysisItem as InboxItem } from '../../../../shared/contract/inbox';
import { RouteTo } from '../routes/RouteTo';

/**
 * Extra actions under each inbox item: "Route to…" another MCP server, with the matching
 * route's preview. Kept as its own module so the router's UI never touches the review page.
 */
export function InboxItemExtras({ item }: { item: InboxItem }) {
  return item.path ? <RouteTo path={item.path} /> : null;
}
