// iCalendar (RFC 5545) invitations for meetings, attached to their e-mails as invite.ics.

const CRLF = '\r\n';

/**
 * Control characters other than tab end a line for some calendar readers (a bare CR starts a new property) and are
 * not allowed in text (RFC 5545 §3.1): removed, after line breaks are kept as the escaped \n.
 */
// eslint-disable-next-line no-control-regex -- these are the characters being removed
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/g;
const withoutControlCharacters = (value: string) => value.replace(CONTROL_CHARACTERS, '');

/** Text values escape backslash, semicolon, comma and newlines (RFC 5545 §3.3.11), and lose other controls. */
const escapeText = (value: string) =>
  withoutControlCharacters(
    value.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n'),
  );

/** A display name in a quoted parameter: no quotes (they would end it) and no control characters. */
const quotedName = (value: string) => withoutControlCharacters(value.replace(/"/g, "'"));

/** 20261127T170000Z */
const utcStamp = (date: Date) =>
  date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/** Lines longer than 75 octets continue on the next line after a space (§3.1), never inside a character. */
function fold(line: string) {
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char);
    if (octets + size > (parts.length === 0 ? 75 : 74)) {
      parts.push(current);
      current = '';
      octets = 0;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join(`${CRLF} `);
}

type MeetingInvite = {
  /** Stable across the invitation and its cancellation, so calendars update the same event. */
  meetingId: string;
  title: string;
  description: string | null;
  joinUrl: string;
  start: Date;
  durationMinutes: number;
  organizer: { name: string; email: string };
  attendee: { name: string };
  cancelled?: boolean;
};

export function meetingInvite(invite: MeetingInvite, now = new Date()) {
  const description = [invite.description, `Join the video meeting: ${invite.joinUrl}`].filter(Boolean).join('\n\n');
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Virtual Help//Meetings//EN',
    'CALSCALE:GREGORIAN',
    `METHOD:${invite.cancelled ? 'CANCEL' : 'REQUEST'}`,
    'BEGIN:VEVENT',
    `UID:${invite.meetingId}@virtual-help`,
    `DTSTAMP:${utcStamp(now)}`,
    `DTSTART:${utcStamp(invite.start)}`,
    `DURATION:PT${invite.durationMinutes}M`,
    `SUMMARY:${escapeText(invite.title)}`,
    `DESCRIPTION:${escapeText(description)}`,
    `URL:${invite.joinUrl}`,
    `LOCATION:${escapeText(invite.joinUrl)}`,
    `ORGANIZER;CN="${quotedName(invite.organizer.name)}":mailto:${invite.organizer.email}`,
    `ATTENDEE;CN="${quotedName(invite.attendee.name)}";ROLE=REQ-PARTICIPANT:invalid:nomail`,
    `SEQUENCE:${invite.cancelled ? 1 : 0}`,
    `STATUS:${invite.cancelled ? 'CANCELLED' : 'CONFIRMED'}`,
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return lines.map(fold).join(CRLF) + CRLF;
}
