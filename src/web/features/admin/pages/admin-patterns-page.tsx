import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from '#web/lib/toast.ts';
import type { z } from 'zod';
import { MODERATION_CATEGORIES } from '#shared/constants.ts';
import {
  adminMessages,
  createPatternSchema,
  PATTERN_STATUSES,
  type AdminModerationPattern,
} from '#shared/schemas/admin.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardHeader } from '#web/components/ui/card.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { NativeSelect } from '#web/components/ui/native-select.tsx';
import { PageHeader } from '#web/components/ui/page-header.tsx';
import { errorMessage } from '#web/lib/api.ts';
import { applyFieldErrors } from '#web/lib/form-errors.ts';
import { toastMessage } from '#web/lib/toast-message.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { useCreatePattern, usePatterns, useSetPatternActive, type AdminTableFilter } from '../api.ts';
import { adminDateTime, StatusBadge } from '../components/admin-format.tsx';
import { AdminTable, pagedRows, type AdminColumn } from '../components/admin-table.tsx';

const categoryLabel = (category: string) => (category.charAt(0).toUpperCase() + category.slice(1)).replaceAll('_', ' ');

const columns: AdminColumn<AdminModerationPattern>[] = [
  { header: 'Pattern', cell: (pattern) => <code className="break-all">{pattern.pattern}</code> },
  { header: 'Category', cell: (pattern) => categoryLabel(pattern.category) },
  { header: 'Description', cell: (pattern) => pattern.description ?? '—' },
  { header: 'Status', cell: (pattern) => <StatusBadge status={pattern.isActive ? 'active' : 'inactive'} /> },
  { header: 'Created At', cell: (pattern) => adminDateTime(pattern.createdAt), sortable: true },
];

export function AdminPatternsPage() {
  useDocumentTitle('Moderation Patterns');
  const [filter, setFilter] = useState<AdminTableFilter<'active' | 'inactive'>>({ order: 'newest' });
  const patterns = usePatterns(filter);
  const setActive = useSetPatternActive();

  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="Moderation Patterns"
        description="Texts matching an active pattern are not sent and are flagged. Phone, e-mail and link patterns catch what the built-in rules miss. Changes apply from the next message."
      />
      <AddPatternForm />
      <AdminTable
        caption="Moderation patterns"
        columns={columns}
        data={pagedRows(patterns)}
        rowKey={(pattern) => pattern.id}
        errorMessage={adminMessages.patternsFailed}
        emptyMessage="No moderation patterns"
        status={{
          value: filter.status,
          options: PATTERN_STATUSES,
          onChange: (status) => setFilter({ ...filter, status: status as 'active' | 'inactive' | undefined }),
        }}
        order={{ value: filter.order, onChange: (order) => setFilter({ ...filter, order }) }}
        actions={(pattern) => (
          <Button
            size="sm"
            variant="outline"
            loading={setActive.isPending && setActive.variables.id === pattern.id}
            onClick={() =>
              setActive.mutate(
                { id: pattern.id, isActive: !pattern.isActive },
                { onError: (error) => toastMessage(errorMessage(error)) },
              )
            }
          >
            {pattern.isActive ? 'Disable' : 'Enable'}
          </Button>
        )}
      />
    </div>
  );
}

type PatternValues = z.input<typeof createPatternSchema>;

function AddPatternForm() {
  const create = useCreatePattern();
  const form = useForm<PatternValues, unknown, z.output<typeof createPatternSchema>>({
    resolver: zodResolver(createPatternSchema),
    defaultValues: { pattern: '', category: 'offensive', description: '', sample: '' },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await create.mutateAsync({ ...values, description: values.description ?? undefined });
      toast.success('Pattern added', { description: 'It applies from the next message.' });
      form.reset();
    } catch (error) {
      if (!applyFieldErrors(form.setError, error, ['pattern', 'category', 'description', 'sample'])) {
        toastMessage(errorMessage(error));
      }
    }
  });

  return (
    <Card>
      <CardHeader>
        <h2 className="text-lg font-semibold">Add a pattern</h2>
        <p className="text-sm text-muted-foreground">
          A case-insensitive regular expression without lookaheads or backreferences, tried on the sample message and on
          long texts before it is saved.
        </p>
      </CardHeader>
      <CardContent>
        <form noValidate onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-2">
          <FormField label="Pattern" error={errors.pattern?.message} required>
            <Input autoComplete="off" spellCheck={false} maxLength={200} {...form.register('pattern')} />
          </FormField>
          <FormField label="Category" error={errors.category?.message}>
            <NativeSelect {...form.register('category')}>
              {MODERATION_CATEGORIES.map((category) => (
                <option key={category} value={category}>
                  {categoryLabel(category)}
                </option>
              ))}
            </NativeSelect>
          </FormField>
          <FormField label="Sample message it must block" error={errors.sample?.message} required>
            <Input autoComplete="off" maxLength={1000} {...form.register('sample')} />
          </FormField>
          <FormField label="Description (optional)" error={errors.description?.message}>
            <Input autoComplete="off" maxLength={200} {...form.register('description')} />
          </FormField>
          <Button type="submit" className="self-start sm:col-span-2 sm:justify-self-start" loading={create.isPending}>
            Add Pattern
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
