// Owns one "Add skill" attempt: reads the dropped .zip (or zips the picked folder), sends it in chunks,
// asks the server for a plan (dry run), and installs on the user's word. The dialog below only renders.
"use client";
import { useCallback, useEffect, useRef, useState } from "react";
import type { ClientCommand, InstallLayer } from "../../server/protocol/index.ts";
import { newUploadId, uploadChunks, zipPickedFolder } from "../lib/skill-upload.ts";
import type { UiState } from "../state/types.ts";
import { AddSkillDialog, type AddSkillStatus } from "./add-skill-dialog.tsx";

interface Upload {
  id: string;
  fileName: string;
}

export function AddSkillContainer({
  sessionId,
  workdir,
  answer,
  send,
  onClose,
}: {
  sessionId: string;
  workdir?: string;
  answer: UiState["skillInstall"];
  send: (command: ClientCommand) => void;
  onClose: () => void;
}) {
  const [layer, setLayer] = useState<InstallLayer>("user");
  const [upload, setUpload] = useState<Upload | undefined>(undefined);
  const [status, setStatus] = useState<AddSkillStatus>("idle");
  const [localProblem, setLocalProblem] = useState<string | undefined>(undefined);
  const layerRef = useRef(layer);
  layerRef.current = layer;

  const current = answer && upload && answer.uploadId === upload.id ? answer : undefined;
  // The answer for the request in flight ends the wait (an install's answer has dryRun false).
  useEffect(() => {
    if (current) setStatus("idle");
  }, [current]);

  const requestPlan = useCallback(
    (target: Upload, targetLayer: InstallLayer) => {
      setStatus("checking");
      send({
        type: "install_skill",
        sessionId,
        uploadId: target.id,
        fileName: target.fileName,
        layer: targetLayer,
        dryRun: true,
        force: false,
      });
    },
    [send, sessionId],
  );

  const start = useCallback(
    (fileName: string, bytes: Uint8Array) => {
      const next = { id: newUploadId(), fileName };
      setUpload(next);
      for (const chunk of uploadChunks(sessionId, next.id, bytes)) send(chunk);
      requestPlan(next, layerRef.current);
    },
    [requestPlan, send, sessionId],
  );

  const onPickZip = useCallback(
    (file: File) => {
      setLocalProblem(undefined);
      if (!/\.zip$/i.test(file.name)) {
        setLocalProblem(`${file.name} is not a .zip file; drop a .zip, or choose a folder.`);
        return;
      }
      setStatus("reading");
      file.arrayBuffer().then(
        (buffer) => start(file.name, new Uint8Array(buffer)),
        (error: unknown) => {
          setStatus("idle");
          setLocalProblem(`cannot read ${file.name}: ${String(error)}`);
        },
      );
    },
    [start],
  );

  const onPickFolder = useCallback(
    (files: File[]) => {
      setLocalProblem(undefined);
      setStatus("reading");
      Promise.all(
        files.map(async (file) => ({
          relativePath: file.webkitRelativePath || file.name,
          bytes: new Uint8Array(await file.arrayBuffer()),
        })),
      ).then(
        (picked) => {
          const top = picked[0]?.relativePath.split("/")[0] ?? "folder";
          start(`${top}/ (folder)`, zipPickedFolder(picked));
        },
        (error: unknown) => {
          setStatus("idle");
          setLocalProblem(`cannot read the folder: ${String(error)}`);
        },
      );
    },
    [start],
  );

  return (
    <AddSkillDialog
      view={{ fileName: upload?.fileName, status, answer: current, localProblem }}
      layer={layer}
      workdir={workdir}
      onLayerChange={(next) => {
        setLayer(next);
        if (upload && status === "idle" && !(current && !current.dryRun)) requestPlan(upload, next);
      }}
      onPickZip={onPickZip}
      onPickFolder={onPickFolder}
      onInstall={(force) => {
        if (!upload) return;
        setStatus("installing");
        send({
          type: "install_skill",
          sessionId,
          uploadId: upload.id,
          fileName: upload.fileName,
          layer,
          dryRun: false,
          force,
        });
      }}
      onClose={onClose}
    />
  );
}
