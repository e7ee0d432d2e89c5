import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SlackPeer } from '../apps/server/src/modules/notifications/channels/test/slackPeer.js';
import { integrationPeopleCommands } from './integrationPeople.js';
import { freePort } from './parleyServer.js';
import { choosePeerPorts, peerServerEnv } from './peers.js';
import { startUpstreamIssuer } from './upstreamIssuer.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const main = path.join(root, 'apps/server/dist/main.js');
const setupCommands = path.join(root, 'e2e/setupCommands.ts');

/** The user the browser tests sign in as. */
export const e2eUser = { email: 'e2e-admin@example.test', password: 'Browser-Tests-2026' };
export const e2eAccountName = 'Harbor Dental';
/** The help centre the server is configured with (HELP_CENTER_URL): the account menu links to it. */
export const e2eHelpCenterUrl = 'https://help.parley.example/start';
/** A user who is only ever used to decline the terms. */
export const e2eDecliner = { email: 'e2e-decliner@example.test', password: 'Say-No-Thanks-2026' };
/** The administrator of an account of its own, which the account settings spec changes and finally closes. */
export const e2eOwner = { email: 'e2e-owner@example.test', password: 'Tidewater-Owner-2026' };
export const e2eOwnerAccountName = 'Tidewater Books';
/** The administrator of an account on a paid plan (an operator's choice), which may add phone numbers. */
export const e2eTwoLines = { email: 'e2e-two-lines@example.test', password: 'Front-Desk-Lines-2026' };
export const e2eTwoLinesAccountName = 'Two Lines Bistro';
/**
 * A second paid account of the same administrator, which only the top-up spec uses: it asserts the balance,
 * which the outbound number spec's number and messages would change when the two run side by side.
 */
export const e2eTopUpAccountName = 'Top Up Bakery';
/** A verified Parley user that spec adds to its account (at once, being verified), re-roles and removes. */
export const e2eColleague = { email: 'e2e-colleague@example.test', password: 'Tidewater-Colleague-2026' };

const webIndex = path.join(root, 'apps/web/dist/index.html');

/**
 * Starts the built product on a free port with a fresh data directory, as `npm start` would, and
 * hands its address to the tests in E2E_BASE_URL. Every integration's local peer is configured (peers.ts):
 * the specs start the peers on the ports in E2E_PEER_PORTS. Returns the teardown.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  for (const [file, how] of [
    [main, 'npx tsc -b'],
    [webIndex, 'npm run build -w @parley/web'],
  ] as const) {
    if (!fs.existsSync(file)) throw new Error(`${file} is missing: run \`${how}\` (npm test does) first`);
  }
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!fs.existsSync(chromium)) {
    throw new Error(`No Chromium at ${chromium}: install Debian's package (apt-get install -y chromium) or set CHROMIUM_PATH`);
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-e2e-'));
  const logFile = path.join(dataDir, 'server.log');
  // The browser must use the address the issuer's redirects name, so the port is chosen up front.
  const port = await freePort();
  // A local stand-in for Google, so social sign-in can be driven end to end (socialSignIn.spec.ts).
  const upstream = await startUpstreamIssuer(`http://localhost:${String(port)}/oidc/social/testid/callback`);
  // A local Slack (its OAuth page, Web API and Events API requests), for the Slack channel (slackChannel.spec.ts).
  const slack = new SlackPeer();
  await slack.start();
  slack.eventsUrl = `http://127.0.0.1:${String(port)}/v1/notificationchannels/slack/events`;
  // The integrations' peers run in the specs' process; the server is told now where they will listen.
  const peerPorts = await choosePeerPorts([port]);
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://localhost:${port}`,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    SOCIAL_PROVIDERS: upstream.providers,
    HELP_CENTER_URL: e2eHelpCenterUrl,
    // The webhook receivers of notifications.spec.ts and the Slack peer listen on loopback.
    FETCH_ALLOWED_HOSTS: '127.0.0.1',
    ...slack.env(),
    ...peerServerEnv(peerPorts),
  };
  // The embedded database belongs to one process at a time: set it up before the server starts, with all
  // the command lines in one process (setupCommands.ts) rather than a process (and a load of the code) each.
  const commandLines = [
    ['create-user', '--email', e2eUser.email, '--password', e2eUser.password, '--first-name', 'Erin', '--last-name', 'Tester', '--verified'],
    ['create-account', '--owner', e2eUser.email, '--name', e2eAccountName],
    ['create-user', '--email', e2eDecliner.email, '--password', e2eDecliner.password, '--verified'],
    ['create-user', '--email', e2eOwner.email, '--password', e2eOwner.password, '--first-name', 'Tess', '--last-name', 'Owner', '--verified'],
    ['create-account', '--owner', e2eOwner.email, '--name', e2eOwnerAccountName],
    ['create-user', '--email', e2eTwoLines.email, '--password', e2eTwoLines.password, '--first-name', 'Lina', '--last-name', 'Lines', '--verified'],
    ['create-account', '--owner', e2eTwoLines.email, '--name', e2eTwoLinesAccountName, '--plan', 'starter'],
    ['create-account', '--owner', e2eTwoLines.email, '--name', e2eTopUpAccountName, '--plan', 'starter'],
    ['create-user', '--email', e2eColleague.email, '--password', e2eColleague.password, '--first-name', 'Cole', '--last-name', 'League', '--verified'],
    ...integrationPeopleCommands(),
  ];
  // Test code is never built: tsx runs the script from its source (it imports the built CLI's runner).
  execFileSync(process.execPath, ['--import', 'tsx', setupCommands], { cwd: root, env, input: JSON.stringify(commandLines), stdio: ['pipe', 'inherit', 'inherit'] });
  const child = spawn(process.execPath, [main], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const log = fs.createWriteStream(logFile);
  child.stderr.pipe(log);
  const url = await new Promise<string>((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => {
      reject(new Error(`the server did not start in 60 s; see ${logFile}`));
    }, 60_000);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      log.write(chunk);
      buffer += chunk;
      if (buffer.includes('"msg":"Parley is ready')) {
        clearTimeout(timer);
        resolve(env.PUBLIC_URL);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${String(code)}); see ${logFile}`));
    });
  });
  process.env.E2E_BASE_URL = url;
  process.env.E2E_SLACK_PEER_URL = slack.base;
  process.env.E2E_PEER_PORTS = JSON.stringify(peerPorts);
  // Where signIn keeps each person's first sign-in for the rest of the run (e2e/signIn.ts).
  process.env.E2E_SIGNED_IN_DIR = path.join(dataDir, 'signed-in');
  return async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    await upstream.close();
    await slack.stop();
    log.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
