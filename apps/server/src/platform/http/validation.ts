import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { NUL_CHARACTER_MESSAGE, nulCharacterPaths } from '@parley/shared';

/**
 * The validator of every route's params, query, headers and body: its zod schema, after one check no
 * schema can forget. PostgreSQL refuses the NUL character in text, so a value holding one anywhere is
 * refused here with 400 naming the field, instead of failing its write with 500 (docs/security.md).
 */
export const requestValidatorCompiler: FastifySchemaCompiler<z.ZodType> = (route) => {
  const withoutNul = z
    .unknown()
    .superRefine((value, ctx) => {
      for (const path of nulCharacterPaths(value)) ctx.addIssue({ code: 'custom', path, message: NUL_CHARACTER_MESSAGE });
    })
    .pipe(route.schema);
  return validatorCompiler({ ...route, schema: withoutNul });
};
