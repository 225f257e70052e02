import { z } from 'zod';
import { REPORT_REASON_VALUES, ROLES } from '#shared/constants.ts';
import { requiredText } from './text-fields.ts';

// Report a user (SPEC.md §2 "Report form", §5 "Report"), shared by the form and POST /api/reports.

export const REPORT_DETAILS_MAX_LENGTH = 2_000;

export const reportMessages = {
  fillAll: 'Error - Please fill in all fields',
  tooLong: `Error - Please keep the details under ${REPORT_DETAILS_MAX_LENGTH} characters`,
  submitted: 'Report submitted - Thank you for helping keep our community safe.',
  self: 'You cannot report yourself.',
  notFound: 'This user does not exist.',
} as const;

export const createReportSchema = z.object({
  reportedUserId: z.uuid(reportMessages.fillAll),
  reason: z.enum(REPORT_REASON_VALUES, { error: reportMessages.fillAll }),
  description: requiredText(reportMessages.fillAll, REPORT_DETAILS_MAX_LENGTH, reportMessages.tooLong),
});

const reportSchema = z.object({
  id: z.uuid(),
  reportedUserId: z.uuid(),
  reason: z.enum(REPORT_REASON_VALUES),
  description: z.string(),
  status: z.string(),
  createdAt: z.iso.datetime({ offset: true }),
});

/** 201: a new report; 200: added to the reporter's earlier report on this user that is still pending. */
export const createReportAnswerSchema = z.object({ report: reportSchema, merged: z.boolean() });

/** Who is being reported, as the form shows them. */
export const reportTargetSchema = z.object({
  id: z.uuid(),
  username: z.string(),
  role: z.enum(ROLES),
  image: z.string().nullable(),
});

export type CreateReportInput = z.infer<typeof createReportSchema>;
export type CreateReportAnswer = z.infer<typeof createReportAnswerSchema>;
export type ReportTarget = z.infer<typeof reportTargetSchema>;
