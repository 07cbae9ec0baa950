/** Placeholder until the models panel lands (issue 5): shows nothing. */
export function ModelsPanel() {
  return null;
}
