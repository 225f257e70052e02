/** `attachment; filename="ascii fallback"; filename*=UTF-8''…` (RFC 6266), so any file name survives the header. */
export function contentDisposition(type: 'inline' | 'attachment', filename: string) {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${type}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
