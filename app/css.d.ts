// Stylesheets are imported for their side effect; Next's generated next-env.d.ts declares this too, but it
// is not committed, and `npm test` type-checks before the first `next build` on a clean clone.
declare module "*.css";
