import { Component, Fragment, type ErrorInfo, type ReactNode } from 'react';

interface Props {
  /** Shown in the card ("Sessions"). */
  page: string;
  children: ReactNode;
}

interface State {
  error: Error | null;
  /** Bumped by "Reload page" so the page mounts afresh. */
  attempt: number;
}

/**
 * One page's render error stays inside that page: an in-place card with the message and a
 * "Reload page" button, while the navigation around it keeps working. The shell keys this by route,
 * so leaving the page clears the error too.
 */
export class PageErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, attempt: 0 };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error(`[mailroom] the ${this.props.page} page hit an error`, error, info.componentStack);
  }

  private reload = () => this.setState((s) => ({ error: null, attempt: s.attempt + 1 }));

  override render(): ReactNode {
    const { error, attempt } = this.state;
    if (error) {
      return (
        <div className="page">
        <div className="card page-error" role="alert" data-testid="page-error">
          <h2>This page hit an error</h2>
          <p>
            The {this.props.page} page stopped because of an unexpected error. The rest of Mailroom still works; reload the page to try again.
          </p>
          <pre className="page-error-message" data-testid="page-error-message">{error.message || String(error)}</pre>
          <button type="button" className="btn btn-primary" onClick={this.reload}>
            Reload page
          </button>
        </div>
        </div>
      );
    }
    return <Fragment key={attempt}>{this.props.children}</Fragment>;
  }
}
