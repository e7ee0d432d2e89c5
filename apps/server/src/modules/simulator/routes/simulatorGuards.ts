import type { AppContext } from '../../../platform/context.js';
import { notFound } from '../../../platform/errors.js';
import { parsePhoneParam } from '../../carriers/index.js';

/** 404 where the deployment's carriers do not include the simulator: its routes exist only beside it. */
export function requireSimulator(ctx: AppContext): void {
  if (!ctx.carriers.configured.includes('simulator')) throw notFound('The simulator');
}

/** A virtual phone's number from the path, or 404. */
export function phoneOf(value: string): string {
  const phone = parsePhoneParam(value);
  if (phone === null) throw notFound('The phone');
  return phone;
}
