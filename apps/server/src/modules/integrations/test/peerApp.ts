/**
 * Where a local peer listens and the OAuth app it knows. The defaults (a free port, the peer's own app) suit a
 * test that starts the peer before it configures Parley; the browser tests' shared server is configured first,
 * so their peers take the port and app it was given.
 */
export interface PeerApp {
  port?: number;
  clientId?: string;
  clientSecret?: string;
}
