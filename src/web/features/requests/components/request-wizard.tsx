import { format } from 'date-fns';
import { BookOpen, ClipboardList } from 'lucide-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { toast } from '#web/lib/toast.ts';
import {
  ASSIGNMENT_BUDGET_CENTS,
  EDUCATION_LEVELS,
  type EducationLevel,
  type RequestType,
  type SupportType,
} from '#shared/constants.ts';
import { budgetProblem } from '#shared/rules/budget.ts';
import { parseCents } from '#shared/rules/money.ts';
import { wizardRequestToInput, type WizardAnswers } from '#shared/schemas/requests.ts';
import { Button } from '#web/components/ui/button.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Textarea } from '#web/components/ui/textarea.tsx';
import { errorMessage } from '#web/lib/api.ts';
import { useSubjects } from '#web/lib/subjects.ts';
import { cn } from '#web/lib/utils.ts';
import { useCreateRequest } from '../api.ts';
import { AttachmentPicker } from './attachment-picker.tsx';
import { levelLabels } from './request-display.tsx';
import { SubjectSelect } from './subject-select.tsx';

type StepId = 'type' | 'level' | 'subject' | 'topic' | 'support' | 'schedule' | 'deadline' | 'budget' | 'attachments';

const STEPS: Record<RequestType, StepId[]> = {
  tutoring: ['type', 'level', 'subject', 'topic', 'support', 'schedule', 'attachments'],
  assignment: ['type', 'topic', 'subject', 'level', 'deadline', 'budget', 'attachments'],
};

const questions: Record<StepId, string> = {
  type: 'What do you need help with?',
  level: 'What is your study level?',
  subject: 'Which subject is it?',
  topic: 'What is the specific topic?',
  support: 'Exam preparation or general support?',
  schedule: 'When would you like your sessions?',
  deadline: 'When is it due?',
  budget: 'What is your maximum budget? (optional)',
  attachments: 'Would you like to attach files? (optional)',
};

type Answers = {
  type: RequestType | null;
  level: EducationLevel | null;
  subjectId: string;
  topic: string;
  supportType: SupportType | null;
  schedule: string;
  deadline: string;
  /** The maximum budget as typed, in dollars. */
  budgetMax: string;
};

const emptyAnswers: Answers = {
  type: null,
  level: null,
  subjectId: '',
  topic: '',
  supportType: null,
  schedule: '',
  deadline: '',
  budgetMax: '',
};

function Choice({
  isSelected,
  onSelect,
  children,
}: {
  isSelected: boolean;
  onSelect: () => void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      role="radio"
      aria-checked={isSelected}
      onClick={onSelect}
      className={cn(
        'flex min-h-12 w-full cursor-pointer items-start gap-3 rounded-lg border p-3 text-left transition-colors hover:bg-accent',
        isSelected &&
          'border-primary ring-1 ring-primary bg-primary-soft text-primary-soft-foreground hover:bg-primary-soft',
      )}
    >
      {children}
    </button>
  );
}

/** The assistant (SPEC.md §2 "Assistant wizard"): one question per screen, posted like the standard form. */
export function RequestWizard({ onDone, onCancel }: { onDone: () => void; onCancel: () => void }) {
  const [answers, setAnswers] = useState<Answers>(emptyAnswers);
  const [files, setFiles] = useState<File[]>([]);
  const [stepIndex, setStepIndex] = useState(0);
  const createRequest = useCreateRequest();
  // The subject question's list, asked for as the assistant opens: its select is ready (enabled, so it can take focus)
  // when the question comes.
  useSubjects();
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const steps = STEPS[answers.type ?? 'tutoring'];
  const step = steps[stepIndex]!;
  const isLast = stepIndex === steps.length - 1;
  const set = <K extends keyof Answers>(key: K, value: Answers[K]) =>
    setAnswers((current) => ({ ...current, [key]: value }));

  // A new question takes focus to its answer (the chosen one, else the first): not left on Next, nor lost when the
  // button pressed (Back on the second step) goes away.
  const fieldset = useRef<HTMLFieldSetElement>(null);
  const focusedStep = useRef(step);
  useEffect(() => {
    if (focusedStep.current === step) return;
    focusedStep.current = step;
    const answer =
      fieldset.current?.querySelector<HTMLElement>('[aria-checked="true"]') ??
      fieldset.current?.querySelector<HTMLElement>('input, textarea, select, button');
    answer?.focus();
  }, [step]);

  const budgetLeftEmpty = answers.budgetMax.trim() === '';
  const budgetMaxCents = budgetLeftEmpty ? null : parseCents(answers.budgetMax);
  const budgetError = budgetLeftEmpty
    ? undefined
    : budgetMaxCents === null
      ? 'Please enter a budget'
      : (budgetProblem({ type: 'assignment', minCents: ASSIGNMENT_BUDGET_CENTS.min, maxCents: budgetMaxCents }) ??
        undefined);

  const isAnswered: Record<StepId, boolean> = {
    type: answers.type !== null,
    level: answers.level !== null,
    subject: answers.subjectId !== '',
    topic: answers.topic.trim() !== '',
    support: answers.supportType !== null,
    schedule: answers.schedule.trim() !== '',
    deadline: answers.deadline !== '',
    budget: budgetError === undefined,
    attachments: true,
  };

  const submit = ({ skipBudget = false, withFiles = true }: { skipBudget?: boolean; withFiles?: boolean } = {}) => {
    const a = answers;
    const wizard: WizardAnswers =
      a.type === 'tutoring'
        ? {
            type: 'tutoring',
            level: a.level!,
            subjectId: a.subjectId,
            topic: a.topic,
            supportType: a.supportType!,
            schedule: a.schedule,
          }
        : {
            type: 'assignment',
            topic: a.topic,
            subjectId: a.subjectId,
            level: a.level!,
            // The end of the chosen day, in the student's time zone.
            deadline: new Date(`${a.deadline}T23:59:59`).toISOString(),
            budgetMaxCents: skipBudget ? null : budgetMaxCents,
            budgetSkipped: skipBudget,
          };
    createRequest.mutate(
      { fields: wizardRequestToInput(wizard), files: withFiles ? files : [], idempotencyKey },
      {
        onSuccess: () => {
          toast.success('Request Created', {
            description: 'Your request has been created and teachers with matching specializations have been notified.',
          });
          onDone();
        },
        onError: (error) => toast.error('Failed to Create Request', { description: errorMessage(error) }),
      },
    );
  };

  const [budgetSkipped, setBudgetSkipped] = useState(false);
  const next = () => {
    if (isLast) submit({ skipBudget: budgetSkipped });
    else setStepIndex((index) => index + 1);
  };

  const progress = Math.round(((stepIndex + 1) / steps.length) * 100);
  const today = format(new Date(), 'yyyy-MM-dd');

  return (
    <form
      className="flex flex-col gap-5"
      onSubmit={(event) => {
        event.preventDefault();
        if (isAnswered[step] && !createRequest.isPending) next();
      }}
    >
      <div className="flex flex-col gap-1.5">
        <div className="flex justify-between text-xs text-muted-foreground">
          <span>
            Step {stepIndex + 1} of {steps.length}
          </span>
          <span>{progress}%</span>
        </div>
        <div
          role="progressbar"
          aria-label="Progress"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={progress}
          className="h-2 overflow-hidden rounded-full bg-muted"
        >
          <div className="h-full rounded-full bg-primary transition-[width]" style={{ width: `${progress}%` }} />
        </div>
      </div>

      <fieldset ref={fieldset} className="flex min-h-48 flex-col gap-3">
        <legend className="mb-3 text-lg font-semibold">{questions[step]}</legend>

        {step === 'type' && (
          <div role="radiogroup" aria-label="Request type" className="grid gap-3">
            <Choice isSelected={answers.type === 'tutoring'} onSelect={() => set('type', 'tutoring')}>
              <BookOpen aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
              <span>
                <span className="block font-medium">Find a Tutor</span>
                <span className="block text-sm text-muted-foreground">Ongoing academic support</span>
              </span>
            </Choice>
            <Choice isSelected={answers.type === 'assignment'} onSelect={() => set('type', 'assignment')}>
              <ClipboardList aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
              <span>
                <span className="block font-medium">Assignment/Project Help</span>
                <span className="block text-sm text-muted-foreground">Specific tasks</span>
              </span>
            </Choice>
          </div>
        )}

        {step === 'level' && (
          <div role="radiogroup" aria-label="Study level" className="grid gap-2 sm:grid-cols-2">
            {EDUCATION_LEVELS.map((level) => (
              <Choice key={level} isSelected={answers.level === level} onSelect={() => set('level', level)}>
                {levelLabels[level]}
              </Choice>
            ))}
          </div>
        )}

        {step === 'subject' && (
          <FormField label="Subject">
            <SubjectSelect value={answers.subjectId} onChange={(event) => set('subjectId', event.target.value)} />
          </FormField>
        )}

        {step === 'topic' && (
          <FormField label="Topic">
            <Input
              value={answers.topic}
              maxLength={200}
              placeholder={
                answers.type === 'tutoring' ? 'e.g. Quadratic equations' : 'e.g. Essay on the French Revolution'
              }
              onChange={(event) => set('topic', event.target.value)}
            />
          </FormField>
        )}

        {step === 'support' && (
          <div role="radiogroup" aria-label="Support type" className="grid gap-2 sm:grid-cols-2">
            <Choice isSelected={answers.supportType === 'exam_prep'} onSelect={() => set('supportType', 'exam_prep')}>
              Exam preparation
            </Choice>
            <Choice
              isSelected={answers.supportType === 'general_support'}
              onSelect={() => set('supportType', 'general_support')}
            >
              General support
            </Choice>
          </div>
        )}

        {step === 'schedule' && (
          <FormField label="Preferred schedule">
            <Textarea
              rows={3}
              maxLength={500}
              value={answers.schedule}
              placeholder="e.g. Weekday evenings, twice a week"
              onChange={(event) => set('schedule', event.target.value)}
            />
          </FormField>
        )}

        {step === 'deadline' && (
          <FormField label="Deadline">
            <Input
              type="date"
              min={today}
              value={answers.deadline}
              onChange={(event) => set('deadline', event.target.value)}
            />
          </FormField>
        )}

        {step === 'budget' && (
          <FormField label="Maximum budget ($)" error={budgetError} description="Leave empty for no maximum.">
            <Input
              type="text"
              inputMode="decimal"
              autoComplete="off"
              value={answers.budgetMax}
              placeholder="e.g. 50"
              onChange={(event) => {
                setBudgetSkipped(false);
                set('budgetMax', event.target.value);
              }}
            />
          </FormField>
        )}

        {step === 'attachments' && <AttachmentPicker files={files} onChange={setFiles} />}
      </fieldset>

      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-between">
        {stepIndex === 0 ? (
          <Button type="button" variant="outline" onClick={onCancel}>
            Cancel
          </Button>
        ) : (
          <Button
            type="button"
            variant="outline"
            disabled={createRequest.isPending}
            onClick={() => setStepIndex((index) => index - 1)}
          >
            Back
          </Button>
        )}
        <div className="flex flex-col-reverse gap-2 sm:flex-row">
          {step === 'budget' && (
            <Button
              type="button"
              variant="ghost"
              onClick={() => {
                set('budgetMax', '');
                setBudgetSkipped(true);
                setStepIndex((index) => index + 1);
              }}
            >
              Skip budget
            </Button>
          )}
          {step === 'attachments' && answers.type === 'assignment' && (
            <Button
              type="button"
              variant="ghost"
              disabled={createRequest.isPending}
              onClick={() => {
                setFiles([]);
                submit({ skipBudget: budgetSkipped, withFiles: false });
              }}
            >
              Skip attachments
            </Button>
          )}
          <Button type="submit" disabled={!isAnswered[step]} loading={createRequest.isPending}>
            {isLast ? (createRequest.isPending ? 'Creating...' : 'Submit') : 'Next'}
          </Button>
        </div>
      </div>
    </form>
  );
}
