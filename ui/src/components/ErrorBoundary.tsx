import { Component, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

function UnexpectedError({ error, island }: { error: Error; island: string }) {
  const { t } = useTranslation();
  return (
    <div className="island-error" role="alert" data-island-error={island}>
      <h2>{t('errors.unexpectedTitle')}</h2>
      <p>{error.message}</p>
    </div>
  );
}

/** Catches what an island throws after hydration: the product's 'Unexpected Application Error' page. */
export class ErrorBoundary extends Component<{ island: string; children: ReactNode }, { error: Error | null }> {
  state = { error: null as Error | null };

  static getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  componentDidCatch(error: unknown) {
    console.error(`Unexpected Application Error in island ${this.props.island}`, error);
  }

  render() {
    if (this.state.error) return <UnexpectedError error={this.state.error} island={this.props.island} />;
    return this.props.children;
  }
}
