import type { ReactNode } from 'react';

/**
 * The end of an editor form: the last error (as an alert), the submit button (off while busy or
 * when `blocked`) and a cancel button, then anything else for the toolbar (a key hint).
 */
export function FormFooter({
  error,
  busy,
  blocked = false,
  submit,
  submitTitle,
  cancel = 'Cancel',
  onCancel,
  children,
}: {
  error: string | null;
  busy: boolean;
  blocked?: boolean;
  submit: ReactNode;
  submitTitle?: string;
  cancel?: string;
  onCancel: () => void;
  children?: ReactNode;
}) {
  return (
    <>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <div className="toolbar">
        <button className="btn btn-primary" type="submit" disabled={busy || blocked} title={submitTitle}>
          {submit}
        </button>
        <button className="btn" type="button" onClick={onCancel}>
          {cancel}
        </button>
        {children}
      </div>
    </>
  );
}
