import { describeMatrix, everyone, type Row } from '../../../tests/support/authorization-matrix.ts';

const ROWS: Record<string, Row> = {
  'GET /api/health': { expected: everyone(200), call: () => ({ url: '/api/health' }) },
  'GET /livez': { expected: everyone(200), call: () => ({ url: '/livez' }) },
  'GET /readyz': { expected: everyone(200), call: () => ({ url: '/readyz' }) },
  'GET /api/settings/public': { expected: everyone(200), call: () => ({ url: '/api/settings/public' }) },
  'GET /robots.txt': { expected: everyone(200), call: () => ({ url: '/robots.txt' }) },
  'GET /sitemap.xml': { expected: everyone(200), call: () => ({ url: '/sitemap.xml' }) },
  'POST /api/contact': {
    expected: everyone(201),
    call: () => ({
      url: '/api/contact',
      payload: { name: 'Ada', email: 'ada@example.com', subject: 'Hello', message: 'A question' },
    }),
  },
  'GET /api/subjects': { expected: everyone(200), call: () => ({ url: '/api/subjects' }) },
};

describeMatrix('site', ROWS);
