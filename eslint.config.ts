import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import checkFile from 'eslint-plugin-check-file';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const featuresOf = (side: 'server' | 'web') => readdirSync(`src/${side}/features`);

/**
 * A feature's public entry: what other features may import. Server features call each other's
 * service; web features share their API hooks, and the screens others embed (a meeting's card in a
 * chat message). Everything else in a feature folder is its own.
 */
const publicEntries = { server: ['service.ts'], web: ['api.ts', 'embeds.ts'] } as const;

/** One zone per ordered pair of features: `target` may reach `from` only through its public entry. */
const featureZones = (side: 'server' | 'web') =>
  featuresOf(side).flatMap((target) =>
    featuresOf(side)
      .filter((from) => from !== target)
      .map((from) => ({
        target: `./src/${side}/features/${target}`,
        from: `./src/${side}/features/${from}`,
        except: publicEntries[side].map((entry) => `./${entry}`),
        message: `Use the ${from} feature through its public entry (${publicEntries[side].join(' or ')}).`,
      })),
  );

/** `target` is a lower layer than each of `above`: it imports none of them. */
const serverLayersBelow = (target: string, above: string[]) =>
  above.map((from) => ({
    target,
    from,
    message: `${target.replace('./src/server/', '')}/ is below ${from.replace('./src/server/', '')}/: it does not import it.`,
  }));

/** The layering of CONTRIBUTING.md, as import zones (`target` must not import `from`). */
const layerZones = [
  { target: './src/shared', from: './src/server', message: 'src/shared imports nothing of ours.' },
  { target: './src/shared', from: './src/web', message: 'src/shared imports nothing of ours.' },
  { target: './src/shared', from: './tests', message: 'src/shared imports nothing of ours.' },
  { target: './src/web', from: './src/server', message: 'The web never imports the server; share through src/shared.' },
  { target: './src/server', from: './src/web', message: 'The server never imports the web; share through src/shared.' },
  { target: './src/server/http', from: './src/server/features', message: 'http/ knows no feature.' },
  { target: './src/server/platform', from: './src/server/features', message: 'platform/ knows no feature.' },
  { target: './src/server/db', from: './src/server/features', message: 'db/ knows no feature.' },
  { target: './src/web/components/ui', from: './src/web/features', message: 'components/ui knows no feature.' },
  { target: './src/web/components/ui', from: './src/web/app', message: 'components/ui knows no feature.' },
  // The boot script stands apart: it and the app share only page-contract/ (vite.config.ts keeps both out of the app).
  {
    target: './src/web/boot',
    from: './src/web',
    except: ['./boot', './page-contract'],
    message: 'boot/ imports only page-contract/ of the web.',
  },
  {
    target: './src/web/page-contract',
    from: './src/web',
    except: ['./page-contract'],
    message: 'page-contract/ imports nothing else of the web: the boot script shares it.',
  },
  ...readdirSync('src/web')
    .filter((entry) => entry !== 'boot')
    .map((entry) => ({
      target: `./src/web/${entry}`,
      from: './src/web/boot',
      message: 'Nothing of the app imports boot/; share through page-contract/.',
    })),
];

/**
 * Below the features, the server's layers point one way in production code: system/ (processes, the data directory)
 * under http/ and db/, which know nothing of each other, under platform/. (Their tests build the whole app.)
 */
const serverLayerZones = [
  ...serverLayersBelow('./src/server/http', ['./src/server/platform', './src/server/db']),
  ...serverLayersBelow('./src/server/db', ['./src/server/platform', './src/server/http']),
  ...serverLayersBelow('./src/server/system', [
    './src/server/features',
    './src/server/platform',
    './src/server/http',
    './src/server/db',
  ]),
];

const restrictedPaths = [...layerZones, ...featureZones('server'), ...featureZones('web')];

export default defineConfig(
  {
    ignores: [
      'dist/**',
      'data/**',
      'coverage/**',
      'playwright-report/**',
      'test-results/**',
      'node_modules/**',
      'tests/lint/fixtures/**',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node, ...globals.browser },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { 'import-x': importX, 'check-file': checkFile },
    settings: {
      // Without these, import-x reads only .js files and no-cycle would see no TypeScript import at all.
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-self-import': 'error',
      'import-x/no-useless-path-segments': 'error',
      'import-x/no-restricted-paths': ['error', { zones: restrictedPaths }],
      'check-file/filename-naming-convention': [
        'error',
        { '**/*.{ts,tsx}': 'KEBAB_CASE' },
        { ignoreMiddleExtensions: true },
      ],
      'check-file/folder-naming-convention': ['error', { 'src/**/': 'KEBAB_CASE' }],
      '@typescript-eslint/no-unnecessary-condition': 'error',
      '@typescript-eslint/no-deprecated': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      // `{ omitted: _, ...rest }` is how a field is left out of a copy.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { ignoreRestSiblings: true, varsIgnorePattern: '^_', argsIgnorePattern: '^_' },
      ],
      // Fastify plugins and hooks are async by contract (an async plugin needs no `done` callback).
      '@typescript-eslint/require-await': 'off',
      // Numbers and booleans in template strings read naturally in messages and logs.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      // Fastify and React Router take async handlers where a void callback is typed.
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { arguments: false, attributes: false } },
      ],
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat['recommended-latest']],
  },
  {
    files: ['src/server/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'import-x/no-restricted-paths': ['error', { zones: [...restrictedPaths, ...serverLayerZones] }] },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts'],
    // A production file stays small enough to read in one sitting; a larger one splits by concern.
    rules: { 'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }] },
  },
  {
    files: ['tests/e2e/**/*.ts'],
    // Playwright reads a fixture's dependencies from its first parameter; `{}` says it has none.
    rules: { 'no-empty-pattern': 'off' },
  },
  {
    files: ['**/*.test.ts', 'tests/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    rules: {
      // Injected and fetched responses parse to `any` by design; the assertions check their shape.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  prettier,
);
