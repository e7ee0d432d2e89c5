import { z } from 'zod';
import { listOperators, setOperator, type OperatorEntry } from '../modules/identity/index.js';
import { CliError, type CliCommand, type CommandResult } from './command.js';

/*
 * `parley operator add|remove <email>` and `parley operator list`: the deployment's operators, who run its
 * feature board (docs/featureRequests.md, "Operators"). Only this command sets the flag: no API call can.
 */

const USAGE = 'operator add|remove EMAIL | operator list';
const actions = ['add', 'remove', 'list'] as const;
type Action = (typeof actions)[number];

const emailOf = (word: string | undefined): string => {
  const parsed = z.email().safeParse(word?.trim());
  if (!parsed.success) throw new CliError('invalid_arguments', `Give the person's e-mail address: parley ${USAGE}.`, 2);
  return parsed.data;
};

const listing = (operators: readonly OperatorEntry[]): CommandResult => ({
  json: { ok: true, operators },
  text: operators.length === 0 ? 'No operators yet.' : operators.map((o) => `${o.email}  ${o.name}`).join('\n'),
});

export const operatorCommand: CliCommand = {
  name: 'operator',
  summary: "Make a person one of the deployment's operators (they run the feature board), take it back, or list them",
  usage: USAGE,
  async run(_config, _flags, positionals, databases) {
    const action = z.enum(actions).safeParse(positionals[0]);
    if (!action.success) throw new CliError('invalid_arguments', `Say what to do: parley ${USAGE}.`, 2);
    const verb: Action = action.data;
    if (verb === 'list') return listing(await databases.withDatabase((database) => listOperators(database.db)));
    const email = emailOf(positionals[1]);
    const operator = verb === 'add';
    const changed = await databases.withDatabase((database) => setOperator(database.db, email, operator));
    if (changed === null) throw new CliError('not_found', `No user has the address ${email}: they sign up first.`);
    return {
      json: { ok: true, operator, user: changed },
      text: operator ? `${changed.email} is now an operator.` : `${changed.email} is no longer an operator.`,
    };
  },
};
