import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { toast } from '#web/lib/toast.ts';
import type { z } from 'zod';
import type { AdminPermission } from '#shared/constants.ts';
import { addSubAdminSchema, adminMessages, type AdminListOrder, type SubAdmin } from '#shared/schemas/admin.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardHeader } from '#web/components/ui/card.tsx';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '#web/components/ui/dialog.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { PageHeader } from '#web/components/ui/page-header.tsx';
import { ApiError, errorMessage } from '#web/lib/api.ts';
import { toastMessage } from '#web/lib/toast-message.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { useAddSubAdmin, useRemoveSubAdmin, useSubAdmins, useUpdateSubAdmin } from '../api.ts';
import { adminDateTime } from '../components/admin-format.tsx';
import { AdminTable, pagedRows, type AdminColumn } from '../components/admin-table.tsx';
import { PermissionPicker } from '../components/permission-picker.tsx';

const columns: AdminColumn<SubAdmin>[] = [
  { header: 'Username', cell: (subAdmin) => subAdmin.username },
  { header: 'Role', cell: (subAdmin) => subAdmin.roleName },
  { header: 'Permissions', cell: (subAdmin) => subAdmin.permissions.join(', ') },
  { header: 'Created At', cell: (subAdmin) => adminDateTime(subAdmin.createdAt), sortable: true },
];

export function AdminSubAdminsPage() {
  useDocumentTitle('Sub-Admin Management');
  const [order, setOrder] = useState<AdminListOrder>('newest');
  const subAdmins = useSubAdmins({ order });
  const [editing, setEditing] = useState<SubAdmin>();
  const [removing, setRemoving] = useState<SubAdmin>();

  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="Sub-Admin Management" />
      <AddSubAdminForm />
      <AdminTable
        caption="Sub-admins"
        columns={columns}
        data={pagedRows(subAdmins)}
        rowKey={(subAdmin) => subAdmin.userId}
        errorMessage={adminMessages.subAdminsFailed}
        emptyMessage="No sub-admins yet"
        order={{ value: order, onChange: setOrder }}
        actions={(subAdmin) => (
          <>
            <Button size="sm" variant="outline" onClick={() => setEditing(subAdmin)}>
              Edit permissions
            </Button>
            <Button size="sm" variant="destructive" onClick={() => setRemoving(subAdmin)}>
              Remove
            </Button>
          </>
        )}
      />
      {editing && <EditPermissionsDialog subAdmin={editing} onClose={() => setEditing(undefined)} />}
      {removing && <RemoveSubAdminDialog subAdmin={removing} onClose={() => setRemoving(undefined)} />}
    </div>
  );
}

type AddValues = z.input<typeof addSubAdminSchema>;

function AddSubAdminForm() {
  const addSubAdmin = useAddSubAdmin();
  const form = useForm<AddValues, unknown, z.output<typeof addSubAdminSchema>>({
    resolver: zodResolver(addSubAdminSchema),
    defaultValues: { account: '', permissions: [] },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const added = await addSubAdmin.mutateAsync(values);
      toast.success(`${added.username} is now a sub-admin`);
      form.reset();
    } catch (error) {
      if (error instanceof ApiError && error.fields?.account) {
        form.setError('account', { message: error.fields.account });
      } else {
        toastMessage(errorMessage(error));
      }
    }
  });

  return (
    <Card>
      <CardHeader>
        <h2 className="text-lg font-semibold">Add a sub-admin</h2>
        <p className="text-sm text-muted-foreground">An existing account gets the sub-admin role.</p>
      </CardHeader>
      <CardContent>
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
          <FormField label="E-mail or username" error={errors.account?.message} required>
            <Input autoComplete="off" maxLength={254} {...form.register('account')} />
          </FormField>
          <Controller
            control={form.control}
            name="permissions"
            render={({ field }) => (
              <PermissionPicker value={field.value} onChange={field.onChange} error={errors.permissions?.message} />
            )}
          />
          <Button type="submit" className="self-start" loading={addSubAdmin.isPending}>
            Add Sub-Admin
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

function EditPermissionsDialog({ subAdmin, onClose }: { subAdmin: SubAdmin; onClose: () => void }) {
  const update = useUpdateSubAdmin();
  const [permissions, setPermissions] = useState<AdminPermission[]>(subAdmin.permissions);
  const error = permissions.length === 0 ? adminMessages.permissionsRequired : undefined;
  const save = async () => {
    try {
      await update.mutateAsync({ userId: subAdmin.userId, input: { permissions } });
      onClose();
    } catch (failure) {
      toastMessage(errorMessage(failure));
    }
  };
  return (
    <Dialog open onOpenChange={(open) => !open && !update.isPending && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Permissions of {subAdmin.username}</DialogTitle>
          <DialogDescription>The pages this sub-admin may use.</DialogDescription>
        </DialogHeader>
        <PermissionPicker value={permissions} onChange={setPermissions} error={error} />
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline" disabled={update.isPending}>
              Cancel
            </Button>
          </DialogClose>
          <Button disabled={Boolean(error)} loading={update.isPending} onClick={() => void save()}>
            Save
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function RemoveSubAdminDialog({ subAdmin, onClose }: { subAdmin: SubAdmin; onClose: () => void }) {
  const remove = useRemoveSubAdmin();
  const confirm = async () => {
    try {
      await remove.mutateAsync(subAdmin.userId);
      onClose();
    } catch (failure) {
      toastMessage(errorMessage(failure));
    }
  };
  return (
    <Dialog open onOpenChange={(open) => !open && !remove.isPending && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Remove {subAdmin.username}?</DialogTitle>
          <DialogDescription>The account stays; it loses admin access at once.</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline" disabled={remove.isPending}>
              Cancel
            </Button>
          </DialogClose>
          <Button variant="destructive" loading={remove.isPending} onClick={() => void confirm()}>
            Remove
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
