// Level 3 of disclosure: per loaded skill, its base directory, its files as listed / read / ran as a script
// / used by a command / never read, and the token cost of each level — L1 its index line, L2 its SOP in
// the environment (the selected request's segment), L3 its files read into the conversation. Every
// figure is the server's tokenizer. All of it as the selected request carried it (state/skill-files.ts):
// the skills active in it and the reads its conversation holds; what the session did after it, and the
// skills loaded after it, are named as such.
"use client";
import type { PromptSegment } from "../../server/protocol/index.ts";
import {
  filesAt,
  neverReadFiles,
  readTokens,
  skillFileRows,
  usesAfterRequest,
  type SkillFileRow,
} from "../state/skill-files.ts";
import type { SkillResourceView } from "../state/skill-resources.ts";

const stateStyle = {
  listed: "text-slate-600",
  read: "font-semibold text-emerald-800",
  ran: "font-semibold text-sky-800",
  used: "font-semibold text-teal-800",
  "never-read": "text-amber-800",
} as const;
const stateLabel = {
  listed: "listed",
  read: "read",
  ran: "ran as a script",
  used: "used by a command",
  "never-read": "never read",
} as const;

/** The row's tooltip: what the run did with the file, from the events (never a guess). */
function fileTitle(file: SkillFileRow): string {
  const parts: string[] = [];
  if (file.reads)
    parts.push(
      `read ${file.reads.reads}× into the conversation: ${file.reads.bytes} bytes, ${file.reads.tokens} tokens (o200k_base)`,
    );
  if (file.uses && file.uses.ran > 0)
    parts.push(
      `ran ${file.uses.ran}× as a script by ${file.uses.tool} (its text did not enter the conversation; its output did)`,
    );
  if (file.uses && file.uses.named > 0)
    parts.push(`named ${file.uses.named}× as an argument of a command ${file.uses.tool} ran`);
  if (parts.length > 0) return parts.join("; ");
  return file.state === "never-read"
    ? "the SOP points to this file, but the run ended without reading, running or naming it"
    : "in the manifest the SOP carries; not read";
}

export const levelHelp =
  "Token cost per level, counted by the server (o200k_base): L1 its line in the stable system's index, " +
  "L2 its SOP in this request's environment, L3 its own files read into the conversation before this request (their results are in its messages).";

/** A test id part for a path: `/` and other separators become `-`. */
export function pathTestId(path: string): string {
  return path.replace(/[^A-Za-z0-9_.-]+/g, "-");
}

export function SkillResourcesLane({
  skills,
  segments,
  requestIndex,
  activeSkills,
}: {
  /** The session's loaded skills and their reads so far. */
  skills: SkillResourceView[];
  /** The selected request's segments (L2 is the environment segment named after the skill). */
  segments?: PromptSegment[];
  /** The selected request, and the skills active in it: the lane shows what it carried. */
  requestIndex: number;
  activeSkills: readonly string[];
}) {
  if (skills.length === 0) return null;
  const carried = skills.filter((skill) => activeSkills.includes(skill.skill));
  const absent = skills
    .filter((skill) => !activeSkills.includes(skill.skill))
    .map((skill) =>
      skill.loadedAfter !== undefined && skill.loadedAfter >= requestIndex
        ? `${skill.skill} (loaded after it)`
        : `${skill.skill} (not active in it)`,
    );
  return (
    <div className="space-y-1 text-[0.7rem]" data-testid="skill-resources-lane">
      <div className="font-semibold" title={levelHelp} data-testid="skill-resources-scope">
        Skill files (level 3){" "}
        <span className="font-normal text-slate-500">
          · as request #{requestIndex} carried them: reads before it
        </span>
      </div>
      {carried.map((skill) => {
        const at = filesAt(skill, requestIndex);
        const after = usesAfterRequest(skill, requestIndex);
        const sop = segments?.find(
          (segment) => segment.kind === "environment" && segment.name === skill.skill,
        );
        return (
          <div key={skill.skill} data-testid={`skill-resources-${skill.skill}`}>
            <div className="flex flex-wrap items-baseline gap-x-2">
              <span className="font-mono text-amber-900">{skill.skill}</span>
              <span className="text-slate-500" data-testid={`skill-levels-${skill.skill}`} title={levelHelp}>
                L1 <span data-testid={`skill-level-l1-${skill.skill}`}>{skill.indexTokens ?? "—"}</span> · L2{" "}
                <span data-testid={`skill-level-l2-${skill.skill}`}>{sop?.tokens ?? "—"}</span> · L3{" "}
                <span data-testid={`skill-level-l3-${skill.skill}`}>{readTokens(at)}</span> tokens
              </span>
            </div>
            <div
              className="truncate font-mono text-slate-500"
              title={skill.baseDir}
              data-testid={`skill-base-${skill.skill}`}
            >
              {skill.baseDir}
            </div>
            <ul className="font-mono">
              {skillFileRows(at).map((file) => (
                <li
                  key={file.path}
                  data-testid={`skill-file-${skill.skill}-${pathTestId(file.path)}`}
                  data-state={file.state}
                  className={stateStyle[file.state]}
                  title={fileTitle(file)}
                >
                  {file.path}{" "}
                  <span className="font-sans">
                    ({stateLabel[file.state]}
                    {file.state === "ran" && file.reads ? ", read too" : ""}
                    {file.reads ? `, ${file.reads.tokens} tokens` : ""})
                  </span>
                </li>
              ))}
              {skill.more > 0 && <li className="text-slate-500">… and {skill.more} more</li>}
            </ul>
            {after.length > 0 && (
              <div className="text-slate-500" data-testid={`skill-after-request-${skill.skill}`}>
                After #{requestIndex} (in the requests that follow): {after.join(", ")}
              </div>
            )}
          </div>
        );
      })}
      {absent.length > 0 && (
        <div className="text-slate-500" data-testid="skill-resources-not-in-request">
          Not in request #{requestIndex}: {absent.join(", ")}
        </div>
      )}
    </div>
  );
}

/** The catalog's after-a-run hint: files an SOP points to that the run never read (not an error). */
export function NeverReadHints({ skills }: { skills: SkillResourceView[] }) {
  const hints = skills.flatMap((skill) => {
    const files = neverReadFiles(skill);
    return files.length > 0 ? [{ skill: skill.skill, files }] : [];
  });
  if (hints.length === 0) return null;
  return (
    <section data-testid="catalog-resource-hints">
      <h3 className="text-xs font-semibold text-slate-600 uppercase">Skill files never read (hint)</h3>
      <ul className="space-y-0.5">
        {hints.map((hint) => (
          <li key={hint.skill} className="text-xs" data-testid={`resource-hint-${hint.skill}`}>
            <span className="font-mono">{hint.skill}</span>: its SOP points to{" "}
            <span className="font-mono">{hint.files.join(", ")}</span>, which no tool read, ran or named since
            it was loaded. Fine if no step needed it; if one did, the SOP may need to say when to read it.
          </li>
        ))}
      </ul>
    </section>
  );
}
