import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tutorBids, tutoringRequests } from '../../db/schema/requests.ts';
import { createSubject } from '../../../../tests/support/factories.ts';
import { TINY_PNG, pngOfSize } from '../../../../tests/support/files.ts';
import { call, signedInStudent, signedInTeacher, type Caller } from '../../../../tests/support/callers.ts';
import { postRequest, requestForm, validRequest } from '../../../../tests/support/request-posting.ts';
import { createTestApp, storedKeys, type TestApp } from '../../../../tests/support/test-app.ts';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');
const ZIP = Buffer.from('504b0304140000000800', 'hex');

describe('posting a request', () => {
  let t: TestApp;
  let subjectId: string;
  let valid: ReturnType<typeof validRequest>;

  beforeAll(async () => {
    t = await createTestApp();
    subjectId = (await createSubject(t.db)).id;
    valid = validRequest(subjectId);
  });
  afterAll(() => t.close());

  const requestCount = () => t.db.$count(tutoringRequests);

  describe('with attachments (multipart)', () => {
    const storedFiles = () => storedKeys(t, 'request-attachments/');

    it('stores images and documents typed from their bytes, and lists them with download links', async () => {
      const student = await signedInStudent(t);
      const form = requestForm({ ...valid, budgetMaxCents: '' }, [
        { bytes: TINY_PNG, filename: 'diagram.png', type: 'image/png' },
        { bytes: PDF, filename: 'notes.pdf', type: 'application/pdf' },
        // Text dressed up as an image: stored as what it is.
        { bytes: Buffer.from('x² + 3x − 4 = 0\n'), filename: 'equation.png', type: 'image/png' },
      ]);
      const response = await postRequest(t, student, form);
      expect(response.statusCode).toBe(201);
      const { request } = response.json();
      expect(request.budgetMaxCents).toBe(1500);
      expect(request.attachments).toEqual([
        {
          index: 0,
          name: 'diagram.png',
          type: 'image/png',
          size: TINY_PNG.length,
          url: `/api/requests/${request.id}/attachments/0`,
        },
        {
          index: 1,
          name: 'notes.pdf',
          type: 'application/pdf',
          size: PDF.length,
          url: `/api/requests/${request.id}/attachments/1`,
        },
        {
          index: 2,
          // The name says what the file really is.
          name: 'equation.png.txt',
          type: 'text/plain',
          size: Buffer.byteLength('x² + 3x − 4 = 0\n'),
          url: `/api/requests/${request.id}/attachments/2`,
        },
      ]);

      const download = await call(t, student, 'GET', request.attachments[2].url);
      expect(download.statusCode).toBe(200);
      expect(download.headers['content-type']).toMatch(/^text\/plain/);
      expect(download.headers['x-content-type-options']).toBe('nosniff');
      expect(download.headers['content-disposition']).toBe(
        `attachment; filename="equation.png.txt"; filename*=UTF-8''equation.png.txt`,
      );
      expect(download.body).toBe('x² + 3x − 4 = 0\n');
    });

    it('cleans the file name the client sent: no folders, no control characters', async () => {
      const student = await signedInStudent(t);
      const form = requestForm(valid, [{ bytes: PDF, filename: '..\\..\\secret\u0007/notes\u0000.pdf' }]);
      const response = await postRequest(t, student, form);
      expect(response.statusCode).toBe(201);
      expect(response.json().request.attachments[0].name).toBe('notes.pdf');
    });

    it('refuses a file name carrying contact details, storing neither request nor file', async () => {
      const student = await signedInStudent(t);
      const [requestsBefore, filesBefore] = [await t.db.$count(tutoringRequests), (await storedFiles()).length];
      const response = await postRequest(
        t,
        student,
        requestForm(valid, [{ bytes: PDF, filename: 'write me at jane.doe@example.com.pdf' }]),
      );
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'MESSAGE_BLOCKED', fields: { attachments: expect.any(String) } });
      expect(await t.db.$count(tutoringRequests)).toBe(requestsBefore);
      expect(await storedFiles()).toHaveLength(filesBefore);
    });

    it.each([
      [
        'more than 10 files',
        Array.from({ length: 11 }, (_, i) => ({ bytes: TINY_PNG, filename: `p${i}.png` })),
        'Maximum files reached - You can only upload up to 10 files.',
      ],
      [
        'a file over 10 MB',
        [
          { bytes: TINY_PNG, filename: 'ok.png' },
          { bytes: pngOfSize(10 * 1024 * 1024 + 10), filename: 'huge.png' },
        ],
        'File too large - Maximum file size is 10MB. Your file is over 10 MB.',
      ],
      [
        'an archive',
        [{ bytes: ZIP, filename: 'homework.zip' }],
        'Invalid file type - Only images and documents are allowed.',
      ],
      [
        'binary bytes of no known type',
        [{ bytes: Buffer.from([0, 1, 2, 3, 255, 254, 0, 7]), filename: 'data.bin' }],
        'Invalid file type - Only images and documents are allowed.',
      ],
    ])('refuses %s with the SPEC message, leaving no request and no file', async (_case, files, message) => {
      const before = { requests: await requestCount(), files: (await storedFiles()).length };
      const response = await postRequest(t, await signedInStudent(t), requestForm(valid, files));
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(message);
      expect(response.json().fields).toBeDefined();
      expect({ requests: await requestCount(), files: (await storedFiles()).length }).toEqual(before);
    });

    it('removes the stored files again when the request is refused after the upload', async () => {
      const before = { requests: await requestCount(), files: (await storedFiles()).length };
      const form = requestForm({ ...valid, subjectId: '2b0b3b1e-6a4f-4f7e-9a55-000000000001' }, [
        { bytes: TINY_PNG, filename: 'a.png' },
      ]);
      const response = await postRequest(t, await signedInStudent(t), form);
      expect(response.json()).toMatchObject({ fields: { subjectId: 'Unknown subject' } });
      expect({ requests: await requestCount(), files: (await storedFiles()).length }).toEqual(before);
    });
  });
});

describe('request attachments', () => {
  let t: TestApp;
  let subjectId: string;
  let owner: Caller;
  beforeAll(async () => {
    t = await createTestApp();
    subjectId = (await createSubject(t.db)).id;
    owner = await signedInStudent(t);
  });
  afterAll(() => t.close());

  // Each test posts its own request, so that none depends on what another did to it.
  const postRequestWithPhoto = async () => {
    const response = await postRequest(
      t,
      owner,
      requestForm(
        {
          type: 'tutoring',
          subjectId,
          description: 'Please check my notes',
          budgetMinCents: 800,
          budgetMaxCents: 1500,
        },
        [{ bytes: TINY_PNG, filename: 'page one.png' }],
      ),
    );
    return response.json().request.id as string;
  };
  const download = (caller: Caller | undefined, requestId: string, index = 0) =>
    call(t, caller, 'GET', `/api/requests/${requestId}/attachments/${index}`);

  it('serves a file to its student and to teachers who can see the job, as a download with its detected type', async () => {
    const requestId = await postRequestWithPhoto();
    for (const caller of [owner, await signedInTeacher(t, [subjectId])]) {
      const response = await download(caller, requestId);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('image/png');
      expect(response.headers['content-disposition']).toBe(
        `attachment; filename="page one.png"; filename*=UTF-8''page%20one.png`,
      );
      expect(response.rawPayload.equals(TINY_PNG)).toBe(true);
    }
  });

  it('answers 401 signed out, and 404 to other students, teachers of other subjects and unknown files', async () => {
    const requestId = await postRequestWithPhoto();
    expect((await download(undefined, requestId)).statusCode).toBe(401);
    expect((await download(await signedInStudent(t), requestId)).statusCode).toBe(404);
    expect((await download(await signedInTeacher(t, [(await createSubject(t.db)).id]), requestId)).statusCode).toBe(
      404,
    );
    expect((await download(owner, requestId, 1)).statusCode).toBe(404);
    expect((await download(owner, requestId, 99)).statusCode).toBe(400);
  });

  it('keeps the file for teachers who bid once the job is gone, and hides it from the others', async () => {
    const requestId = await postRequestWithPhoto();
    const bidder = await signedInTeacher(t, [subjectId]);
    const onlooker = await signedInTeacher(t, [subjectId]);
    await t.db.insert(tutorBids).values({ requestId, tutorId: bidder.user.id, amountCents: 1000 });
    await t.db.update(tutoringRequests).set({ status: 'closed' }).where(eq(tutoringRequests.id, requestId));
    expect((await download(bidder, requestId)).statusCode).toBe(200);
    expect((await download(onlooker, requestId)).statusCode).toBe(404);
    expect((await download(owner, requestId)).statusCode).toBe(200);
  });
});
