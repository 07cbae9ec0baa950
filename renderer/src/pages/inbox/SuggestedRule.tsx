import { useState } from 'react';
import { call, errorText, routes } from '../../api';
import type { RuleSuggestion } from '../../../../shared/contract/inbox';

/**
 * "Suggested rule": after the person moved several items sharing a word to one folder against
 * the suggestion, Mailroom proposes a loose-bullet line for `_brain_config/inbox_rules.md`.
 * Accept appends it to the file (plain markdown, committed); Dismiss never proposes it again.
 */
export function SuggestedRuleCard({ suggestion, onDone }: { suggestion: RuleSuggestion; onDone: (message: string) => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const act = async (what: 'accept' | 'dismiss') => {
    setBusy(true);
    try {
      await call(what === 'accept' ? routes.inbox.acceptRule : routes.inbox.dismissRule, { params: { id: String(suggestion.id) }, body: {} });
      onDone(what === 'accept' ? `Added to inbox_rules.md: ${suggestion.line.replace(/^-\s*/, '')}` : 'Suggestion dismissed');
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <aside className="card inbox-suggested-rule" aria-label="Suggested rule" data-testid="suggested-rule">
      <div className="inbox-suggested-rule-text">
        <strong>Suggested rule</strong>
        <span className="muted">
          You moved {suggestion.support} items about <em>{suggestion.keyword}</em> to <code>{suggestion.folder}/</code>. Add this line to{' '}
          <code>_brain_config/inbox_rules.md</code>?
        </span>
        <code className="inbox-rule-line">{suggestion.line}</code>
        {error && <span className="error">{error}</span>}
      </div>
      <span className="inbox-buttons">
        <button className="btn btn-primary btn-small" disabled={busy} onClick={() => void act('accept')}>
          Accept
        </button>
        <button className="btn btn-small" disabled={busy} onClick={() => void act('dismiss')}>
          Dismiss
        </button>
      </span>
    </aside>
  );
}
