// File names shown to other users and sent in Content-Disposition: the client's name, made safe and honest.

/** Extensions a name may keep for each type; any other gets the detected one appended ("page.html" -> "page.html.txt"). */
const EXTENSIONS: Record<string, readonly string[]> = {
  'image/jpeg': ['jpg', 'jpeg', 'jfif'],
  'image/png': ['png'],
  'image/gif': ['gif'],
  'image/webp': ['webp'],
  'image/svg+xml': ['svg'],
  'application/pdf': ['pdf'],
  'application/msword': ['doc', 'dot'],
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': ['docx'],
  'application/vnd.ms-excel': ['xls'],
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['xlsx'],
  'application/vnd.ms-powerpoint': ['ppt', 'pps'],
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': ['pptx'],
  'image/bmp': ['bmp'],
  'image/heic': ['heic', 'heif'],
  'image/avif': ['avif'],
  'text/plain': ['txt', 'text'],
};

/**
 * A name fit for display and a Content-Disposition header: no folders, no control characters, at most 255 long,
 * and an extension that matches the detected type, so a downloaded file opens as what it really is.
 */
export function cleanFilename(name: string, detected: { type: string; extension: string }) {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
  const base = (name.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim();
  const extension = /\.([^.]+)$/.exec(base)?.[1]?.toLowerCase();
  const named = !base
    ? `attachment.${detected.extension}`
    : extension && (EXTENSIONS[detected.type] ?? [detected.extension]).includes(extension)
      ? base
      : `${base}.${detected.extension}`;
  return named.length <= 255 ? named : `${named.slice(0, 250 - detected.extension.length)}….${detected.extension}`;
}
