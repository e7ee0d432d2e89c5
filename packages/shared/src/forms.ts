import { z } from 'zod';
import { validationMessages } from './validation.js';

/** A string that must hold something other than blanks ('Required'); trimmed. */
export const requiredText = (max = 200) =>
  z
    .string({ message: validationMessages.required })
    .trim()
    .min(1, { message: validationMessages.required })
    .max(max, { message: `At most ${max} characters` });

export const optionalText = (max = 200) =>
  z
    .string()
    .trim()
    .max(max, { message: `At most ${max} characters` })
    .optional()
    .transform((v) => (v === undefined || v === '' ? undefined : v));

export const emailAddress = z
  .string({ message: validationMessages.required })
  .trim()
  .min(1, { message: validationMessages.required })
  .pipe(z.email({ message: validationMessages.email }))
  .transform((v) => v.toLowerCase());

export const httpUrl = z
  .string()
  .trim()
  .refine((v) => /^https?:\/\/[^\s/$.?#].[^\s]*$/i.test(v), { message: validationMessages.url });

/** A list from a multiple select: 'Must select 1 or more'. */
export const oneOrMore = <T extends z.ZodType>(item: T) =>
  z.array(item, { message: validationMessages.selectOneOrMore }).min(1, { message: validationMessages.selectOneOrMore });
