import { useParams } from 'react-router';
import { pages } from './pages';
import { documentTitle, resolveTitle } from './routeTitle';
import type { PageRoute } from './routes';

export const RoutePage = ({ route }: { route: PageRoute }) => {
  const params = useParams();
  const title = resolveTitle(route.title, params);
  const Page = pages[route.page];
  return (
    <>
      <title>{documentTitle(title)}</title>
      <Page title={title} />
    </>
  );
};
