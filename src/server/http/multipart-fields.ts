// Multipart sends every field as text: these turn a field back into what its JSON twin would hold, before the
// route's own schema checks it. Each leaves a value it does not recognise alone, so the schema's message applies.

/** An empty field is no answer. */
export const fromText = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

/** Numbers arrive as digits. */
export const fromNumberText = (value: unknown) => {
  const present = fromText(value);
  return typeof present === 'string' ? Number(present) : present;
};

/** Checkboxes arrive as "true" or "on". */
export const fromCheckbox = (value: unknown) =>
  value === 'true' || value === 'on' ? true : value === 'false' ? false : value;

/** A list arrives as repeated fields, one field alone, or one JSON array. */
export const fromList = (value: unknown): unknown => {
  if (value === undefined || Array.isArray(value)) return value;
  if (typeof value !== 'string') return [value];
  if (value.trim().startsWith('[')) {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  }
  return value === '' ? [] : [value];
};
