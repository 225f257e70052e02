// `npm run dev`: the API server in watch mode behind Vite's dev server, which proxies /api and /socket.io to it.
import concurrently from 'concurrently';

// PORT is where the app is opened: Vite's page.
const webPort = process.env.PORT ?? '5173';
const apiPort = process.env.DEV_API_PORT ?? '3001';

const { result } = concurrently(
  [
    {
      name: 'api',
      command: 'tsx watch --clear-screen=false src/server/main.ts',
      // The browser is on Vite's page: that is the origin the API must trust, and where e-mailed links lead.
      env: { PORT: apiPort, HOST: 'localhost', PUBLIC_URL: `http://localhost:${webPort}` },
      prefixColor: 'blue',
    },
    {
      name: 'web',
      // A taken port fails at once instead of moving Vite to a page the API does not trust.
      command: `vite --port ${webPort} --strictPort`,
      env: { DEV_API_PORT: apiPort },
      prefixColor: 'magenta',
    },
  ],
  { killOthersOn: ['failure', 'success'] },
);

result.catch(() => (process.exitCode = 1));
