import Alert from '@mui/material/Alert';
import LinearProgress from '@mui/material/LinearProgress';
import Pagination from '@mui/material/Pagination';
import Stack from '@mui/material/Stack';
import { useCallback, useState } from 'react';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { BoardToolbar } from './BoardToolbar';
import { PostDetailDialog } from './PostDetailDialog';
import { PostDialog } from './PostDialog';
import { PostList } from './PostList';
import { BOARD_PAGE_SIZE, useFeatureRequests, type BoardFilter } from './queries';

const firstPage: BoardFilter = { sort: 'votes', status: null, search: '', offset: 0 };

/** The built-in board: posts to search, sort, filter and vote on; a post opens with its comments. */
export const BoardView = ({ operator }: { operator: boolean }) => {
  const [filter, setFilter] = useState<BoardFilter>(firstPage);
  const [writing, setWriting] = useState(false);
  const [openId, setOpenId] = useState<string | null>(null);
  const posts = useFeatureRequests(filter);
  const onFilter = useCallback((change: Partial<BoardFilter>) => {
    setFilter((current) => ({ ...current, ...change }));
  }, []);
  const total = posts.data?.pagination.totalCount ?? 0;
  const pages = Math.ceil(total / BOARD_PAGE_SIZE);

  return (
    <>
      {operator && (
        <Alert severity="info" sx={{ mb: 2 }}>
          You run this board: open a request to change its status, edit or remove it.
        </Alert>
      )}
      <BoardToolbar
        filter={filter}
        onFilter={onFilter}
        onNew={() => {
          setWriting(true);
        }}
      />
      {posts.isFetching && <LinearProgress aria-label="Loading requests" sx={{ mb: 1 }} />}
      {posts.isError ? (
        <ErrorAlert message={errorMessage(posts.error)} onRetry={() => void posts.refetch()} />
      ) : posts.data === undefined ? null : (
        <PostList
          posts={posts.data.data}
          onOpen={(post) => {
            setOpenId(post.id);
          }}
        />
      )}
      {pages > 1 && (
        <Stack sx={{ mt: 2, alignItems: 'center' }}>
          <Pagination
            count={pages}
            page={Math.floor(filter.offset / BOARD_PAGE_SIZE) + 1}
            onChange={(_event, page) => {
              onFilter({ offset: (page - 1) * BOARD_PAGE_SIZE });
            }}
          />
        </Stack>
      )}
      {writing && (
        <PostDialog
          post={null}
          onClose={() => {
            setWriting(false);
          }}
        />
      )}
      {openId !== null && (
        <PostDetailDialog
          id={openId}
          operator={operator}
          onClose={() => {
            setOpenId(null);
          }}
        />
      )}
    </>
  );
};
