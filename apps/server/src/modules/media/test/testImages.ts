import sharp from 'sharp';

/** Pictures for the media tests, made with sharp. */
export const pngOf = (width: number, height: number): Promise<Buffer> =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } }).png().toBuffer();

/** A JPEG stored sideways whose EXIF says to turn it (orientation 6: 90° clockwise), as phones write them. */
export const sidewaysJpeg = (width: number, height: number): Promise<Buffer> =>
  sharp({ create: { width, height, channels: 3, background: { r: 10, g: 120, b: 200 } } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .toBuffer();

/** An animated GIF of three frames. */
export async function animatedGif(width: number, height: number): Promise<Buffer> {
  const frames = await Promise.all(
    ['#ff0000', '#00ff00', '#0000ff'].map((background) => sharp({ create: { width, height, channels: 3, background } }).png().toBuffer()),
  );
  return sharp(frames, { join: { animated: true } }).gif().toBuffer();
}

/** A multipart/form-data body of files and fields, as a browser's FormData sends it. */
export function multipartBody(parts: ({ field: string; value: string } | { file: string; filename: string; type: string; bytes: Buffer })[]): {
  payload: Buffer;
  contentType: string;
} {
  const boundary = `----parleytest${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    if ('field' in part) {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.field}"\r\n\r\n${part.value}\r\n`));
    } else {
      chunks.push(
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.file}"; filename="${part.filename}"\r\nContent-Type: ${part.type}\r\n\r\n`),
        part.bytes,
        Buffer.from('\r\n'),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
