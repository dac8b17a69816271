// The stopword package ships no types; the router uses its English list only.
declare module "stopword" {
  export const eng: string[];
}
