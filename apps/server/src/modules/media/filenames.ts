const extensions: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/gif': 'gif', 'image/webp': 'webp' };

/**
 * The name an upload keeps: the last path segment the browser sent, without control characters, at most
 * 255 characters; `upload.<ext>` when nothing is left. It is shown on chips and in downloads, never used as a path.
 */
export function uploadFilename(given: string, contentType: string): string {
  const base = given.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 255);
  return clean === '' ? `upload.${extensions[contentType.toLowerCase()] ?? 'bin'}` : clean;
}
