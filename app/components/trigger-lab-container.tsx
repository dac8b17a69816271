// Turns what the person does in the trigger lab (start, stop, check or apply a catalog budget) into the
// session's client commands; the dialog it renders only shows the lab and emits those intents.
"use client";
import type { ClientCommand } from "../../server/protocol/index.ts";
import type { SessionView } from "../state/types.ts";
import { OptimizerPanel } from "./optimizer-panel.tsx";
import { TriggerLabDialog } from "./trigger-lab-dialog.tsx";

export function TriggerLabContainer({
  session,
  send,
  onClose,
}: {
  session: SessionView;
  send: (command: ClientCommand) => void;
  onClose: () => void;
}) {
  const sessionId = session.id;
  return (
    <TriggerLabDialog
      lab={session.triggerLab}
      budget={session.catalogBudget}
      appliedBudget={session.settings.catalogBudget}
      skills={session.catalog?.skills.map((skill) => skill.name) ?? []}
      provider={session.settings.provider}
      model={session.settings.model}
      onStart={(input) => send({ type: "start_trigger_lab", sessionId, ...input })}
      onStop={() => send({ type: "cancel_trigger_lab", sessionId })}
      onCheckBudget={(profile, contextWindow) =>
        send({ type: "catalog_budget", sessionId, profile, ...(contextWindow ? { contextWindow } : {}) })
      }
      onApplyBudget={(catalogBudget) =>
        send({ type: "update_session", sessionId, settings: { catalogBudget } })
      }
      onClose={onClose}
      optimizer={
        <OptimizerPanel
          view={session.optimizer}
          skills={
            session.catalog?.skills.map(({ name, source, description }) => ({ name, source, description })) ??
            []
          }
          lint={session.catalog?.lint}
          provider={session.settings.provider}
          onStart={(input) => send({ type: "start_optimizer", sessionId, ...input })}
          onStop={() => send({ type: "cancel_optimizer", sessionId })}
          onPropose={(description) => send({ type: "optimizer_proposal", sessionId, description })}
          onApply={(skill, description) => send({ type: "apply_description", sessionId, skill, description })}
        />
      }
    />
  );
}
