import { useId } from 'react';
import { ADMIN_PERMISSIONS, type AdminPermission } from '#shared/constants.ts';
import { Checkbox } from '#web/components/ui/checkbox.tsx';
import { Label } from '#web/components/ui/label.tsx';

/** The page each permission opens, as the side menu names it. */
const permissionLabels: Record<AdminPermission, string> = {
  dashboard: 'Dashboard',
  reports: 'Report Management',
  content: 'Illegal Content',
  meetings: 'Meeting Stats',
  users: 'Users (suspend, reinstate)',
  patterns: 'Moderation Patterns',
  messages: 'Contact Messages',
  payments: 'Payments',
};

/** Checkboxes of the sub-admin permissions, in a fieldset with its error. */
export function PermissionPicker({
  value,
  onChange,
  error,
}: {
  value: AdminPermission[];
  onChange: (permissions: AdminPermission[]) => void;
  error?: string | undefined;
}) {
  const id = useId();
  return (
    <fieldset className="flex flex-col gap-2" aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="mb-1 text-sm font-medium">Permissions</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {ADMIN_PERMISSIONS.map((permission) => (
          <div key={permission} className="flex items-center gap-2">
            <Checkbox
              id={`${id}-${permission}`}
              checked={value.includes(permission)}
              aria-invalid={error ? true : undefined}
              onCheckedChange={(checked) =>
                onChange(checked ? [...value, permission] : value.filter((item) => item !== permission))
              }
            />
            <Label htmlFor={`${id}-${permission}`} className="font-normal">
              {permissionLabels[permission]}
            </Label>
          </div>
        ))}
      </div>
      {error && (
        <p id={`${id}-error`} className="text-sm text-error">
          {error}
        </p>
      )}
    </fieldset>
  );
}
