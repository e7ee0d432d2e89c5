import { asc } from 'drizzle-orm';
import { emailAddress, isSupportedCountryCode, passwordStrength, requiredText, weakPasswordMessage } from '@parley/shared';
import { buildCarrierRegistry } from '../modules/carriers/index.js';
import { createAccountFor } from '../modules/accounts/index.js';
import { embeddedFirstNumbers } from '../modules/phoneNumbers/index.js';
import { plans } from '../platform/db/schema/index.js';
import { createUser, findUserByEmail } from '../modules/identity/index.js';
import { CliError, type CliCommand } from './command.js';
import { requiredFlag, stderrLogger, textFlag } from './options.js';

export const createUserCommand: CliCommand = {
  name: 'create-user',
  summary: 'Create a user who signs in with e-mail and password (prints the user id)',
  usage: 'create-user --email E --password P [--first-name F] [--last-name L] [--verified]',
  async run(config, flags, _positionals, databases) {
    const email = emailAddress.safeParse(requiredFlag(flags, 'email'));
    if (!email.success) throw new CliError('invalid_email', 'Invalid email address', 2);
    const password = requiredFlag(flags, 'password');
    if (!passwordStrength(password).strong) throw new CliError('weak_password', weakPasswordMessage(), 2);
    const firstName = textFlag(flags, 'first-name')?.trim() ?? '';
    const lastName = textFlag(flags, 'last-name')?.trim() ?? '';
    const user = await databases.withDatabase(async ({ db }) => {
      if (await findUserByEmail(db, email.data)) {
        throw new CliError('email_taken', `A user with the email ${email.data} already exists.`);
      }
      return createUser(db, { email: email.data, password, firstName, lastName, emailVerified: flags.has('verified') });
    });
    return { json: { ok: true, userId: user.id }, text: user.id };
  },
};

export const createAccountCommand: CliCommand = {
  name: 'create-account',
  summary: 'Create an account (on the Trial plan unless --plan names another) with a user as its administrator (prints the account id)',
  usage: 'create-account --owner E --name N [--country US] [--plan trial|starter|growth|scale]',
  async run(config, flags, _positionals, databases) {
    const ownerEmail = requiredFlag(flags, 'owner');
    const name = requiredText(120).safeParse(requiredFlag(flags, 'name'));
    if (!name.success) throw new CliError('missing_option', '--name is required.', 2);
    const country = (textFlag(flags, 'country') ?? 'US').trim().toUpperCase();
    if (!isSupportedCountryCode(country)) throw new CliError('invalid_country', 'Country is not valid', 2);
    const planId = textFlag(flags, 'plan')?.trim().toLowerCase();
    const account = await databases.withDatabase(async (database) => {
      const { db } = database;
      const owner = await findUserByEmail(db, ownerEmail);
      if (!owner) throw new CliError('unknown_owner', `No user has the email ${ownerEmail.trim()}.`);
      if (planId !== undefined) {
        const known = (await db.select({ id: plans.id }).from(plans).orderBy(asc(plans.price))).map((p) => p.id);
        if (!known.includes(planId)) throw new CliError('unknown_plan', `No plan has the id ${planId}. Plans: ${known.join(', ')}.`, 2);
      }
      // As in the app: on the embedded database with the simulator, the account gets a number at once.
      const log = stderrLogger();
      const carriers = buildCarrierRegistry(config, database, log);
      try {
        return await createAccountFor(
          db,
          {
            ownerId: owner.id,
            name: name.data,
            country,
            ...(planId === undefined ? {} : { planId }),
            // The operator gives no support details or questionnaire; the owner fills them in the app.
            support: { email: owner.email },
            questionnaire: { messagingType: [], desiredIntegrations: [] },
          },
          config.billing.trialCredit,
          embeddedFirstNumbers({ config, carriers, database, log }),
        );
      } finally {
        await carriers.stop();
      }
    });
    return { json: { ok: true, accountId: account.id }, text: account.id };
  },
};
