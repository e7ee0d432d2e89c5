import { useAuth } from 'react-oidc-context';
import { LoadingScreen } from '../../auth/AuthGate';
import { ErrorAlert } from '../../components/ErrorAlert';

/** /callback: the issuer sends the browser here with the code; the auth provider finishes and moves on. */
export const CallbackPage = () => {
  const auth = useAuth();
  if (auth.error) return <ErrorAlert message={auth.error.message} />;
  return <LoadingScreen />;
};
