import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { carrierMediaUrl } from '../../media/index.js';
import type { MediaItem } from '../carrier.js';

/** The sample pictures a virtual phone sends, served publicly (a carrier's MMS media is a public URL too). */
export const simulatorPictures = ['sunrise.png', 'ocean.png', 'forest.png'] as const;
export type SimulatorPicture = (typeof simulatorPictures)[number];

const assetsDir = fileURLToPath(new URL('../../../../assets/simulator/', import.meta.url));

export const isSimulatorPicture = (name: string): name is SimulatorPicture =>
  (simulatorPictures as readonly string[]).includes(name);

/** The stable public address of a sample picture. */
export const simulatorPictureUrl = (publicUrl: string, name: SimulatorPicture): string =>
  `${publicUrl}/v1/simulator/media/${name}`;

const cache = new Map<SimulatorPicture, Promise<Buffer>>();

/** The PNG's bytes (read once). */
export function readSimulatorPicture(name: SimulatorPicture): Promise<Buffer> {
  let bytes = cache.get(name);
  if (!bytes) {
    bytes = readFile(`${assetsDir}${name}`);
    bytes.catch(() => cache.delete(name));
    cache.set(name, bytes);
  }
  return bytes;
}

/**
 * A real carrier fetches an MMS's media once and keeps its copy; the virtual phone keeps the URL instead
 * and shows it whenever the page is open, so our own uploads get a signed URL that lasts 30 days.
 */
export const SIMULATOR_MEDIA_TTL_SECONDS = 30 * 24 * 3600;

export function phoneMedia(accountId: string, media: readonly MediaItem[], now: Date): Promise<MediaItem[]> {
  return Promise.all(
    media.map(async ({ url, contentType }) => ({ url: await carrierMediaUrl(url, { accountId, now, ttlSeconds: SIMULATOR_MEDIA_TTL_SECONDS }), contentType })),
  );
}
