// @ts-check
/**
 * A line for the person at the terminal while Parley builds and starts ("Building the web app…", "Ready
 * at …"). It goes to stderr, and only when stderr is a terminal: stdout carries the JSON log lines, which
 * say the same for machines, and a service manager's or a container's log gets no prose.
 * @param {string} line
 */
export function consoleNote(line) {
  if (process.stderr.isTTY) process.stderr.write(`${line}\n`);
}
