import { describe, expect, it } from 'vitest';
import { DELETED_USER_NAME } from '../schemas/account-deletion.ts';
import { withoutName, type ErasedName } from './erased-name.ts';

const person = (username: string, email = `${username}@example.org`): ErasedName => ({
  username,
  email,
  erasedEmail: 'erased-1@erased.invalid',
});

describe('withoutName', () => {
  it('replaces the username as a word, whatever its case, and the address, in plain text', () => {
    expect(withoutName('Alice123 (alice123@example.org) wrote to alice1234.', 'text', person('alice123'))).toBe(
      `${DELETED_USER_NAME} (erased-1@erased.invalid) wrote to alice1234.`,
    );
  });

  it('writes the erased address whole, whatever word the username is', () => {
    expect(withoutName('invalid (invalid@example.org) wrote.', 'text', person('invalid'))).toBe(
      `${DELETED_USER_NAME} (erased-1@erased.invalid) wrote.`,
    );
  });

  it('leaves longer addresses that end or begin with the address alone', () => {
    const text = 'ann@x.com, joann@x.com, ann@x.com.au and ANN@X.COM.';
    expect(withoutName(text, 'text', person('zz', 'ann@x.com'))).toBe(
      'erased-1@erased.invalid, joann@x.com, ann@x.com.au and erased-1@erased.invalid.',
    );
  });

  it('keeps links whatever the username', () => {
    expect(withoutName('https wrote: open https://vh.example/chat/1', 'text', person('https'))).toBe(
      `${DELETED_USER_NAME} wrote: open https://vh.example/chat/1`,
    );
  });

  it('keeps the tags, attributes and entities of HTML, and replaces the address in a link too', () => {
    const html =
      '<html><body><p class="title"><a href="https://vh.example/chat">title</a> &amp; <a href="mailto:t@x.io">t@x.io</a></p></body></html>';
    expect(withoutName(html, 'html', person('title', 't@x.io'))).toBe(
      `<html><body><p class="title"><a href="https://vh.example/chat">${DELETED_USER_NAME}</a> &amp; <a href="mailto:erased-1@erased.invalid">erased-1@erased.invalid</a></p></body></html>`,
    );
    expect(withoutName('<p>amp &amp; body</p>', 'html', person('amp'))).toBe(`<p>${DELETED_USER_NAME} &amp; body</p>`);
  });

  it('keeps the make-up of an invitation, rewriting the words of its text and the names of people', () => {
    const calendar = [
      'BEGIN:VCALENDAR',
      'METHOD:REQUEST',
      'BEGIN:VEVENT',
      'SUMMARY:Session with request',
      'DESCRIPTION:Hi from request.\\n\\nJoin the video meeting: https://vh.example/request',
      ' ed by request',
      'ORGANIZER;CN="request":mailto:request@example.org',
      'ATTENDEE;CN="Ann";ROLE=REQ-PARTICIPANT:invalid:nomail',
      'STATUS:CONFIRMED',
      'END:VEVENT',
      'END:VCALENDAR',
    ].join('\r\n');
    expect(withoutName(calendar, 'calendar', person('request')).split('\r\n')).toEqual([
      'BEGIN:VCALENDAR',
      'METHOD:REQUEST',
      'BEGIN:VEVENT',
      `SUMMARY:Session with ${DELETED_USER_NAME}`,
      `DESCRIPTION:Hi from ${DELETED_USER_NAME}.\\n\\nJoin the video meeting: https://vh.example/request`,
      ` ed by ${DELETED_USER_NAME}`,
      `ORGANIZER;CN="${DELETED_USER_NAME}":mailto:erased-1@erased.invalid`,
      'ATTENDEE;CN="Ann";ROLE=REQ-PARTICIPANT:invalid:nomail',
      'STATUS:CONFIRMED',
      'END:VEVENT',
      'END:VCALENDAR',
    ]);
    expect(withoutName('BEGIN:VEVENT\r\nEND:VEVENT', 'calendar', person('vevent'))).toBe('BEGIN:VEVENT\r\nEND:VEVENT');
  });
});
