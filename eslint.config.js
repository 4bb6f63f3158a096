// One linter configuration for the whole tree: ESLint's and typescript-eslint's recommended rules.
// Formatting is Prettier's (npm run format); `npm run lint` checks both and runs in `npm test`.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "node_modules/",
      "dist/",
      "public/",
      "coverage/",
      ".bench/",
      ".demo/",
      "netlify/edge-functions/",
      "examples/price-feed.d.ts",
      // The client package's compiled output, and its types as openapi-typescript writes them
      // (regenerated, never edited: test/client/types.test.ts).
      "client/dist/",
      "client/src/openapi.ts",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  // Plain JavaScript run by Node (TypeScript files get their globals from the type checker).
  {
    files: ["**/*.js", "**/*.mjs"],
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly" } },
  },
  {
    rules: {
      // `_name` marks a value deliberately left unused (destructuring it away, a positional parameter).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
    },
  },
);
