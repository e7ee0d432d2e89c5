import dns2 from 'dns2';

const { Packet } = dns2;
/** RFC 1035's name error (dns2 has Packet.RCODE but its types leave it out). */
const NXDOMAIN = 3;

/** What the zone holds for a name: A records and/or a CNAME (as a DNS host would let one set them). */
export interface ZoneEntry {
  a?: string[];
  cname?: string;
}

export interface LocalZone {
  /** address:port for DNS_RESOLVER. */
  address: string;
  /** The records per name; change them between checks, as a domain's owner would. */
  records: Map<string, ZoneEntry>;
  close(): Promise<void>;
}

/**
 * A DNS server on a free local UDP port answering A and CNAME questions from `records` (NXDOMAIN for a
 * name it does not hold), as the domain's zone would through a recursive resolver.
 */
export async function startLocalZone(): Promise<LocalZone> {
  const records = new Map<string, ZoneEntry>();
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const name = (question?.name ?? '').toLowerCase();
      const entry = records.get(name);
      if (entry === undefined) response.header.rcode = NXDOMAIN;
      else if (question?.type === Packet.TYPE.CNAME && entry.cname !== undefined) {
        response.answers.push({ name, type: Packet.TYPE.CNAME, class: Packet.CLASS.IN, ttl: 60, domain: entry.cname });
      } else if (question?.type === Packet.TYPE.A) {
        for (const address of entry.a ?? []) response.answers.push({ name, type: Packet.TYPE.A, class: Packet.CLASS.IN, ttl: 60, address });
      }
      void send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const port = addresses.udp?.port;
  if (port === undefined) throw new Error('the local DNS server did not listen');
  return { address: `127.0.0.1:${String(port)}`, records, close: () => server.close() };
}
