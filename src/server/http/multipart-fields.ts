// Multipart sends every field as text: these turn a field back into what its JSON twin would hold, before the
// route's own schema checks it. Each leaves a value it does not recognise alone, so the schema's message applies.

/** An empty field is no answer. */
export const fromText = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

/** Whole numbers (cents, counts) arrive as digits; "8.5" or "1e3" stay text, for the schema to refuse. */
export const fromIntegerText = (value: unknown) => {
  const present = fromText(value);
  return typeof present === 'string' && /^-?\d+$/.test(present.trim()) ? Number(present) : present;
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
