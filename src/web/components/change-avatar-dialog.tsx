import { useMutation } from '@tanstack/react-query';
import { Camera } from 'lucide-react';
import { useState, type SubmitEvent } from 'react';
import { toast } from '#web/lib/toast.ts';
import { AvatarPicker } from '#web/components/avatar-picker.tsx';
import { Button } from '#web/components/ui/button.tsx';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '#web/components/ui/dialog.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { ApiError, errorMessage } from '#web/lib/api.ts';
import { notifyAuthChanged } from '#web/lib/auth-client.ts';
import { avatarProblem } from '#shared/rules/avatar.ts';
import { uploadAvatar } from '#web/lib/avatar.ts';

type ChangeAvatarDialogProps = {
  /** For the initial letter when there is no picture. */
  displayName: string;
  currentImage: string | null | undefined;
  /** Called with the new picture's URL once it is stored (to update the caller's cached data). */
  onUploaded?: (image: string) => void;
};

const NO_FILE_MESSAGE = 'Please choose a picture';

/**
 * "Change picture" (SPEC.md §2 profile page and chat profile drawer): pick, preview, check against
 * the avatar rules, upload. Failure: "Error updating profile picture".
 */
export function ChangeAvatarDialog({ displayName, currentImage, onUploaded }: ChangeAvatarDialogProps) {
  const [isOpen, setOpen] = useState(false);
  const [file, setFile] = useState<File | undefined>();
  const [error, setError] = useState<string | undefined>();

  const upload = useMutation({
    mutationFn: uploadAvatar,
    onSuccess: async ({ image }) => {
      onUploaded?.(image);
      // The top bar shows the picture from the session.
      await notifyAuthChanged();
      toast.success('Profile picture updated');
      setOpen(false);
    },
    onError: (uploadError) => {
      const fieldMessage = uploadError instanceof ApiError ? uploadError.fields?.avatar : undefined;
      if (fieldMessage) {
        setError(fieldMessage);
        return;
      }
      toast.error('Error updating profile picture', { description: errorMessage(uploadError) });
    },
  });

  const onOpenChange = (open: boolean) => {
    setOpen(open);
    if (!open) {
      setFile(undefined);
      setError(undefined);
      upload.reset();
    }
  };

  const onFileChange = (next: File | undefined) => {
    setFile(next);
    setError(next ? (avatarProblem(next) ?? undefined) : undefined);
  };

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!file) {
      setError(NO_FILE_MESSAGE);
      event.currentTarget.querySelector('input')?.focus();
      return;
    }
    if (error) {
      event.currentTarget.querySelector('input')?.focus();
      return;
    }
    upload.mutate(file);
  };

  return (
    <Dialog open={isOpen} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm">
          <Camera aria-hidden="true" />
          Change picture
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Change picture</DialogTitle>
          <DialogDescription>Choose a JPG, PNG or WebP image of up to 5 MB.</DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-6">
          <FormField label="New picture" error={error}>
            <AvatarPicker
              displayName={displayName}
              currentImage={currentImage}
              file={file}
              isFileValid={Boolean(file) && !error}
              onFileChange={onFileChange}
              disabled={upload.isPending}
            />
          </FormField>
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline" disabled={upload.isPending}>
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" loading={upload.isPending}>
              {upload.isPending ? 'Uploading...' : 'Save picture'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
