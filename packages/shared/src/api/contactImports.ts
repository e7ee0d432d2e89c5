import { z } from 'zod';
import { importDefaultsSchema, importMappingSchema } from '../contactImport.js';
import { IMPORT_FILE_MAX_BYTES } from '../contactImportText.js';
import { contactSchema } from './contacts.js';
import { recordResponse } from './pagination.js';

/**
 * Contact imports (docs/decisions.md, Contact imports). A CSV file is uploaded raw
 * and imported by a background job (POST .../contacts/imports → 202, then GET .../contacts/imports/{id});
 * rows already in JSON are imported at once (POST .../contacts/import, up to IMPORT_SYNC_ROWS_MAX rows).
 * Both answer the same result. docs/decisions.md says what each number means.
 */

/**
 * How a row treats the contact that already has its number (docs/decisions.md, Contact imports): 'append'
 * (the default) adds tags and attributes and sets the fields the row gives; 'core' sets only the core
 * fields (names, e-mail) and leaves tags and attributes as they are; 'remove' makes the row the truth,
 * replacing tags and attributes. The wizard's switch chooses 'remove' or 'append'.
 */
export const mergeStrategies = ['append', 'core', 'remove'] as const;
export type MergeStrategy = (typeof mergeStrategies)[number];

export const mergeStrategySchema = z.enum(mergeStrategies, { message: 'Use append, core or remove' }).default('append');

/** Rows one JSON call may carry; larger files go through the upload. */
export const IMPORT_SYNC_ROWS_MAX = 1000;
/** The result lists the first rows that did not go in; the count of the rest is given. */
export const IMPORT_ERRORS_LISTED_MAX = 1000;
export { IMPORT_FILE_MAX_BYTES };

export const importApiMessages = {
  tooManyRows: `At most ${IMPORT_SYNC_ROWS_MAX} rows per call: upload larger files as CSV to /contacts/imports`,
  notJson: 'Must be JSON',
  unsupportedType: 'Send the file as text/csv (or application/octet-stream)',
} as const;

/** A query parameter that holds JSON (mapping and defaults of the upload). */
const jsonQuery = <T extends z.ZodType>(schema: T) =>
  z
    .string()
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: importApiMessages.notJson });
        return z.NEVER;
      }
    })
    .pipe(schema);

/**
 * POST /v1/accounts/{acc}/contacts/imports: the body is the file itself (text/csv or
 * application/octet-stream, at most 20 MB). `mapping` and `defaults` are JSON; columns the mapping leaves
 * out are mapped automatically, and a missing country default is the account's default country.
 */
export const contactImportUploadQuerySchema = z
  .object({
    fileName: z.string().trim().max(255).default('contacts.csv'),
    mergeStrategy: mergeStrategySchema,
    // Query parameters are described inline (a named component there is a $ref the OpenAPI writer cannot follow).
    mapping: jsonQuery(importMappingSchema).optional(),
    defaults: jsonQuery(importDefaultsSchema).optional(),
  });

export type ContactImportUploadQuery = z.output<typeof contactImportUploadQuerySchema>;

/** POST /v1/accounts/{acc}/contacts/import?mergeStrategy=: rows as objects, keys as CSV headers. */
export const contactImportRowsQuerySchema = z.object({ mergeStrategy: mergeStrategySchema });

const cellSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const contactImportRowsSchema = z
  .object({
    data: z
      .array(z.record(z.string().max(500), z.union([cellSchema, z.array(z.string())])))
      .max(IMPORT_SYNC_ROWS_MAX, { message: importApiMessages.tooManyRows }),
    mapping: importMappingSchema.optional(),
    defaults: importDefaultsSchema.optional(),
  })
  .meta({ id: 'ContactImportRows' });

export type ContactImportRows = z.output<typeof contactImportRowsSchema>;

export const contactImportErrorSchema = z
  .object({
    /** As a spreadsheet numbers it: the header is row 1 (in a JSON call, data[0] is row 1). */
    row: z.number().int(),
    reason: z.string(),
  })
  .meta({ id: 'ContactImportError' });

export type ContactImportError = z.infer<typeof contactImportErrorSchema>;

/**
 * The upload result. Every row counted in `submitted` either went in (`success`: created or updated,
 * a number that is not valid included, kept with valid false) or is listed in `errors` with the reason
 * (its missing number and in-file duplicates too, counted again in `missingMobile` and `duplicates`).
 */
export const contactImportResultSchema = z
  .object({
    submitted: z.number().int(),
    success: z.number().int(),
    missingMobile: z.number().int(),
    duplicates: z.number().int(),
    errors: z.array(contactImportErrorSchema),
    /** Rows that did not go in beyond the listed ones (only the first 1,000 are listed). */
    unlistedErrors: z.number().int(),
  })
  .meta({ id: 'ContactImportResult' });

export type ContactImportResult = z.infer<typeof contactImportResultSchema>;

export const contactImportStatuses = ['queued', 'running', 'completed', 'failed'] as const;
export type ContactImportStatus = (typeof contactImportStatuses)[number];

export const contactImportSchema = z
  .object({
    id: z.uuid(),
    status: z.enum(contactImportStatuses),
    fileName: z.string(),
    fileSize: z.number().int(),
    mergeStrategy: z.enum(mergeStrategies),
    progress: z.object({
      processedRows: z.number().int(),
      /** Known once the file has been read through (before any row is written). */
      totalRows: z.number().int().nullable(),
    }),
    /** So far while running; final once completed. */
    result: contactImportResultSchema,
    /** Why a failed import failed: a file that cannot be read is refused before any row is written. */
    error: z.object({ description: z.string() }).nullable(),
    created: z.object({ at: z.iso.datetime() }),
    started: z.object({ at: z.iso.datetime() }).nullable(),
    finished: z.object({ at: z.iso.datetime() }).nullable(),
  })
  .meta({ id: 'ContactImport' });

export type ContactImport = z.infer<typeof contactImportSchema>;

export const contactImportRecordSchema = recordResponse(contactImportSchema);
export const contactImportResultResponseSchema = recordResponse(contactImportResultSchema);

/**
 * A row of a CSV file imported in one call that did not go in, shaped as the hosted product's
 * ContactUploadResponse lists them (as contacts): the row, what names it in the file (each left out when the
 * file gives none) and why.
 */
export const contactUploadErrorSchema = z
  .object({
    row: z.number().int(),
    firstName: z.string().optional(),
    lastName: z.string().optional(),
    mobile: z.object({ number: z.string() }).optional(),
    email: z.string().optional(),
    error: z.object({ description: z.string() }),
  })
  .meta({ id: 'ContactUploadError' });

export type ContactUploadError = z.infer<typeof contactUploadErrorSchema>;

/**
 * POST /v1/accounts/{acc}/contacts with a text/csv body: the hosted product's one-call import, answered with
 * its ContactUploadResponse fields (submitted, success, inserted, updated, errors, contacts) and Parley's
 * counts of the two usual reasons (missingMobile, duplicates). The call is recorded as a completed import
 * (`importId`). docs/decisions.md says what each number means.
 */
export const contactUploadSchema = z
  .object({
    importId: z.uuid(),
    submitted: z.number().int(),
    /** Rows that went in: `inserted` new contacts and `updated` ones the account already had. */
    success: z.number().int(),
    inserted: z.number().int(),
    updated: z.number().int(),
    missingMobile: z.number().int(),
    duplicates: z.number().int(),
    errors: z.array(contactUploadErrorSchema),
    /** The contacts the rows went into, as they are now, in the order of the file. */
    contacts: z.array(contactSchema),
  })
  .meta({ id: 'ContactUpload' });

export type ContactUpload = z.infer<typeof contactUploadSchema>;

export const contactUploadResponseSchema = z
  .object({ success: z.literal(true), data: contactUploadSchema })
  .meta({ id: 'ContactUploadResponse' });

/** Websocket (outbox) events of an import, to the account's room. */
export const contactImportEventTypes = ['contactImportProgress', 'contactsImported'] as const;
export type ContactImportEventType = (typeof contactImportEventTypes)[number];

/** contactImportProgress (at most about once a second) and contactsImported (once, at the end). */
export interface ContactImportEventData {
  import: ContactImport;
}
