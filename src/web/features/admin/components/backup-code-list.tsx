/** Backup codes as they are shown once: at enrolment, and when new ones replace them. */
export function BackupCodeList({ codes }: { codes: string[] }) {
  return (
    <ul aria-label="Backup codes" className="grid grid-cols-2 gap-2 font-mono text-sm sm:max-w-sm">
      {codes.map((code) => (
        <li key={code} className="rounded-md border bg-muted px-3 py-1.5">
          {code}
        </li>
      ))}
    </ul>
  );
}
