// The table of hidden characters lives in server/protocol/hidden-characters.ts, where every layer can read
// it (skill names are checked against it too); the permission engine reads it from here.
export {
  escapeCharacter,
  escapeHiddenCharacters,
  findHiddenCharacters,
} from "../protocol/hidden-characters.ts";
