/** The first `length` characters, plus "…" when the text was longer (notification 100, job card 180). */
export function truncateText(text: string, length: number) {
  const characters = Array.from(text);
  return characters.length > length ? `${characters.slice(0, length).join('').trimEnd()}…` : text;
}

/** The text with the characters HTML gives a meaning (& < > " ') written as character references. */
export function escapeHtml(text: string) {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
