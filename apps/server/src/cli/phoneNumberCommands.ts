import { z } from 'zod';
import { addConnectionPhoneNumberSchema, type AddConnectionPhoneNumber } from '@parley/shared';
import { buildCarrierRegistry } from '../modules/carriers/index.js';
import { addConnectionNumber, type ConnectionNumberTarget } from '../modules/phoneNumbers/index.js';
import { CliError, type CliCommand } from './command.js';
import { refusalsAsCliErrors, requiredFlag, stderrLogger, textFlag, type Flags } from './options.js';

const NOT_SMPP_MESSAGE =
  'Only SMPP numbers are added by hand (--carrier smpp): simulator and Twilio numbers are bought in the app (Phone Numbers, Add).';

function accountOf(flags: Flags): string {
  const account = z.uuid().safeParse(textFlag(flags, 'account'));
  if (!account.success) throw new CliError('invalid_arguments', 'Give the account id: --account <uuid>.', 2);
  return account.data;
}

function carrierOf(flags: Flags): 'smpp' {
  if (requiredFlag(flags, 'carrier').trim().toLowerCase() !== 'smpp') throw new CliError('unsupported_carrier', NOT_SMPP_MESSAGE, 2);
  return 'smpp';
}

/** The number, name and rate, checked by the API's own schema (libphonenumber, the same messages). */
function numberOf(flags: Flags): AddConnectionPhoneNumber {
  const rate = textFlag(flags, 'rate');
  const parsed = addConnectionPhoneNumberSchema.safeParse({
    number: requiredFlag(flags, 'number'),
    name: textFlag(flags, 'name'),
    messagesPerSecond: rate === undefined ? undefined : Number(rate.trim() === '' ? Number.NaN : rate),
  });
  if (parsed.success) return parsed.data;
  const [issue] = parsed.error.issues;
  const field = String(issue?.path[0] ?? 'number');
  const flag = field === 'messagesPerSecond' ? 'rate' : field;
  throw new CliError(field === 'number' ? 'invalid_number' : 'invalid_arguments', `--${flag}: ${issue?.message ?? 'not valid'}`, 2);
}

export const addNumberCommand: CliCommand = {
  name: 'add-number',
  summary: "Add a number your SMPP carrier provisioned to an account, active at once (prints the phone number id)",
  usage: 'add-number --account ID --number E.164 --carrier smpp [--connection ID] [--name N] [--rate N]',
  async run(config, flags, _positionals, databases) {
    const accountId = accountOf(flags);
    carrierOf(flags);
    const number = numberOf(flags);
    const connection = textFlag(flags, 'connection')?.trim() ?? null;
    const row = await databases.withDatabase(async (database) => {
      const carriers = buildCarrierRegistry(config, database, stderrLogger());
      try {
        // The operator vouches for the number: the deployment's SMPP numbers are theirs to hand out.
        const target: ConnectionNumberTarget =
          connection === null
            ? { carrierSettingsId: null, voucher: { kind: 'operator' } }
            : { carrierSettingsId: connection, voucher: { kind: 'operator' } };
        return await refusalsAsCliErrors(() => addConnectionNumber(database.db, { accountId, number, configured: carriers.configured, ...target }));
      } finally {
        await carriers.stop();
      }
    });
    return {
      json: {
        ok: true,
        phoneNumberId: row.id,
        accountId,
        number: row.number,
        country: row.country,
        type: row.type,
        carrier: row.carrier,
        connection: row.carrierSettingsId,
        status: row.status,
        messagesPerSecond: row.messagesPerSecond,
      },
      text: row.id,
    };
  },
};
