import { z } from 'zod';
import { hasNulCharacter, NUL_CHARACTER_MESSAGE, validationMessages } from '../validation.js';
import { listQuerySchema, listResponse, recordResponse } from './pagination.js';

/*
 * The deployment's feature-request board (docs/featureRequests.md): posts, one vote per user, comments. It
 * belongs to the deployment, not to an account; every signed-in person may post, vote and comment, and the
 * deployment's operators change statuses, edit and remove.
 */

/** The board the sign-on token names (product.md, "/featurerequests"). */
export const FEATURE_BOARD = 'feature-requests';
/** How long a sign-on token of the board lasts. */
export const FEATURE_BOARD_TOKEN_SECONDS = 5 * 60;

export const featureRequestStatuses = ['open', 'planned', 'inProgress', 'done', 'declined'] as const;
export type FeatureRequestStatus = (typeof featureRequestStatuses)[number];

export const featureRequestStatusLabels: Record<FeatureRequestStatus, string> = {
  open: 'Open',
  planned: 'Planned',
  inProgress: 'In Progress',
  done: 'Done',
  declined: 'Declined',
};

export const featureRequestSorts = ['votes', 'recent'] as const;
export type FeatureRequestSort = (typeof featureRequestSorts)[number];

export const FEATURE_TITLE_MAX = 200;
export const FEATURE_TEXT_MAX = 5000;
export const FEATURE_COMMENT_MAX = 2000;
export const FEATURE_SEARCH_MAX = 200;

export const FEATURE_REQUESTS_EMPTY_STATE = 'No feature requests yet';
export const FEATURE_REQUEST_NOT_FOUND_MESSAGE = 'The feature request was not found.';
export const FEATURE_COMMENT_NOT_FOUND_MESSAGE = 'The comment was not found.';
export const FEATURE_BOARD_OPERATORS_ONLY_MESSAGE = "Only the deployment's operators may do this";
export const FEATURE_BOARD_PEOPLE_ONLY_MESSAGE = 'API credentials have no place on the feature board';
export const FEATURE_STATUS_MESSAGE = `Status must be one of ${featureRequestStatuses.join(', ')}`;
export const FEATURE_SORT_MESSAGE = `Sort by ${featureRequestSorts.join(' or ')}`;

const text = (max: number) =>
  z
    .string({ message: validationMessages.required })
    .trim()
    .min(1, { message: validationMessages.required })
    .max(max, { message: `At most ${max} characters` })
    .refine((value) => !hasNulCharacter(value), { message: NUL_CHARACTER_MESSAGE });

const statusField = z.enum(featureRequestStatuses, { message: FEATURE_STATUS_MESSAGE });

const personSchema = z.object({ id: z.uuid(), name: z.string() }).meta({ id: 'FeatureRequestPerson' });

export const featureRequestSchema = z
  .object({
    id: z.uuid(),
    title: z.string(),
    text: z.string(),
    status: statusField,
    /** Null once the author's user is removed. */
    author: personSchema.nullable(),
    voteCount: z.number().int(),
    commentCount: z.number().int(),
    /** Whether the caller has voted for it. */
    voted: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'FeatureRequest' });
export type FeatureRequest = z.infer<typeof featureRequestSchema>;

export const featureCommentSchema = z
  .object({
    id: z.uuid(),
    featureRequest: z.object({ id: z.uuid() }),
    text: z.string(),
    author: personSchema.nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'FeatureRequestComment' });
export type FeatureComment = z.infer<typeof featureCommentSchema>;

/** GET /v1/featurerequests: sorted by votes (the default) or recency, filtered by status and words. */
export const featureRequestListQuerySchema = listQuerySchema.extend({
  sort: z.enum(featureRequestSorts, { message: FEATURE_SORT_MESSAGE }).default('votes'),
  status: statusField.optional(),
  search: z.string().trim().max(FEATURE_SEARCH_MAX, { message: `At most ${FEATURE_SEARCH_MAX} characters` }).optional(),
});
export type FeatureRequestListQuery = z.output<typeof featureRequestListQuerySchema>;

export const newFeatureRequestSchema = z.object({ title: text(FEATURE_TITLE_MAX), text: text(FEATURE_TEXT_MAX) });
export type NewFeatureRequest = z.infer<typeof newFeatureRequestSchema>;

/** PUT /v1/featurerequests/{id} (operators): what is given changes. */
export const featureRequestUpdateSchema = z
  .object({ title: text(FEATURE_TITLE_MAX).optional(), text: text(FEATURE_TEXT_MAX).optional(), status: statusField.optional() })
  .refine((v) => v.title !== undefined || v.text !== undefined || v.status !== undefined, { message: 'Give a title, text or status' });
export type FeatureRequestUpdate = z.infer<typeof featureRequestUpdateSchema>;

export const featureCommentInputSchema = z.object({ text: text(FEATURE_COMMENT_MAX) });
export type FeatureCommentInput = z.infer<typeof featureCommentInputSchema>;

export const featureRequestResponseSchema = recordResponse(featureRequestSchema);
export const featureRequestListSchema = listResponse(featureRequestSchema).meta({ id: 'FeatureRequestList' });
export type FeatureRequestList = z.infer<typeof featureRequestListSchema>;
export const featureCommentResponseSchema = recordResponse(featureCommentSchema);
export const featureCommentListSchema = listResponse(featureCommentSchema).meta({ id: 'FeatureRequestCommentList' });
export type FeatureCommentList = z.infer<typeof featureCommentListSchema>;

/** POST /v1/featurerequests/token: the board's sign-on token and where the board is. */
export const featureBoardTokenSchema = z
  .object({
    /** HS256 JWT: sub, email, name, operator, board, iat, exp. */
    token: z.string(),
    expiresAt: z.string(),
    board: z.literal(FEATURE_BOARD),
    /** Whether the caller is one of the deployment's operators. */
    operator: z.boolean(),
    /** The external board to embed with the token (FEATURE_BOARD_URL); null: the built-in board. */
    boardUrl: z.string().nullable(),
  })
  .meta({ id: 'FeatureBoardToken' });
export type FeatureBoardToken = z.infer<typeof featureBoardTokenSchema>;
export const featureBoardTokenResponseSchema = recordResponse(featureBoardTokenSchema);
