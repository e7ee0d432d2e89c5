import { Navigate, useLocation, useParams } from 'react-router';
import { saveRedirect } from '../session/selection';
import { useOptionalSession } from '../session/sessionContext';
import { pages } from './pages';
import { documentTitle, resolveTitle } from './routeTitle';
import { accountFreePaths, type PageRoute } from './pageRoute';

export const RoutePage = ({ route }: { route: PageRoute }) => {
  const params = useParams();
  const location = useLocation();
  const session = useOptionalSession();
  const title = resolveTitle(route.title, params);
  const Page = pages[route.page];
  // A protected page with no chosen account remembers where it was and goes to the chooser.
  const needsAccount = route.access === 'protected' && !accountFreePaths.includes(route.path);
  if (needsAccount && session !== null && session.account === null) {
    saveRedirect(`${location.pathname}${location.search}`);
    return <Navigate to="/accounts" replace />;
  }
  return (
    <>
      <title>{documentTitle(title)}</title>
      <Page title={title} />
    </>
  );
};
