import type { InboxItem } from './types';

/**
 * Extra actions under each inbox item. Empty here; the router fills it with "Route to…".
 * Kept as its own module so that work never touches the review page.
 */
export function InboxItemExtras(props: { item: InboxItem }) {
  void props;
  return null;
}
