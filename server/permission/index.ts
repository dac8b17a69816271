export type {
  ApprovalAnswer,
  ApprovalRequest,
  PermissionCheck,
  PermissionHook,
  PermissionTrace,
} from "./types.ts";
export { PermissionEngine } from "./engine.ts";
export { buildApprovalRequest } from "./approval.ts";
export { DEFAULT_HOOK_TIMEOUT_MS, evaluateFailClosed, hookDenial, withFailClosed } from "./fail-closed.ts";
export {
  loadPermissionRules,
  loadSettings,
  parseSettingsText,
  settingsPaths,
  type LoadedRules,
  type LoadedSettings,
} from "./settings.ts";
export {
  folderRealpath,
  grantsSomething,
  loadFolderPermission,
  readTrustStore,
  rememberTrustedFolder,
  trustStorePath,
  trustWorthShowing,
  type FolderPermission,
  type TrustVia,
} from "./trust.ts";
export { exactRule, parseRule, type CompiledRule, type PermissionRule, type RuleEffect } from "./rules.ts";
export { analyzeShell, type ShellAnalysis, type SimpleCommand, type ParserFinding } from "./shell-parse.ts";
export { findDangerous } from "./dangerous.ts";
export { escapeHiddenCharacters, findHiddenCharacters } from "../shared/hidden-characters.ts";
export { skillAllowRule, type ScopedAllowRule } from "./scoped-allows.ts";
