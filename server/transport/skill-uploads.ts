// "Add skill" over the WebSocket: a tab sends a .zip as base64 chunks (`skill_upload`, each frame under the
// 1 MiB frame limit), then `install_skill` plans it (dry run: what it would replace or shadow) or installs
// it into the session's user or project layer, after which the session's catalog is reloaded. One upload
// per connection at a time, at most MAX_DOWNLOAD_BYTES; it is dropped after install or after 10 minutes.
import { PlaygroundError } from "../errors/index.ts";
import type { InstallOutcome } from "../protocol/install.ts";
import type { Session } from "../session/session.ts";
import { MAX_DOWNLOAD_BYTES } from "../skills/fetch-archive.ts";
import { installSkill } from "../skills/install-source.ts";

const UPLOAD_TTL_MS = 10 * 60 * 1000;

interface Upload {
  id: string;
  sessionId: string;
  count: number;
  chunks: (Buffer | undefined)[];
  bytes: number;
  timer: NodeJS.Timeout;
}

export class SkillUploads {
  private upload: Upload | undefined;

  private drop(): void {
    if (this.upload) clearTimeout(this.upload.timer);
    this.upload = undefined;
  }

  /** Stores one chunk. Throws `invalid_arguments` for an inconsistent chunk or an upload over the limit. */
  receive(chunk: { sessionId: string; uploadId: string; index: number; count: number; data: string }): void {
    if (!this.upload || this.upload.id !== chunk.uploadId || this.upload.sessionId !== chunk.sessionId) {
      this.drop();
      const timer = setTimeout(() => this.drop(), UPLOAD_TTL_MS);
      timer.unref();
      this.upload = {
        id: chunk.uploadId,
        sessionId: chunk.sessionId,
        count: chunk.count,
        chunks: new Array<Buffer | undefined>(chunk.count).fill(undefined),
        bytes: 0,
        timer,
      };
    }
    const upload = this.upload;
    if (chunk.count !== upload.count || chunk.index >= upload.count) {
      this.drop();
      throw new PlaygroundError(
        "invalid_arguments",
        `skill_upload: chunk ${chunk.index} of ${chunk.count} does not fit an upload of ${upload.count} chunks`,
      );
    }
    const data = Buffer.from(chunk.data, "base64");
    upload.bytes += data.length - (upload.chunks[chunk.index]?.length ?? 0);
    if (upload.bytes > MAX_DOWNLOAD_BYTES) {
      this.drop();
      throw new PlaygroundError(
        "invalid_arguments",
        `skill_upload: the archive is larger than ${Math.round(MAX_DOWNLOAD_BYTES / (1024 * 1024))} MiB`,
      );
    }
    upload.chunks[chunk.index] = data;
  }

  /** Plans or installs the finished upload into `session`'s layer; reloads its catalog after an install. */
  async install(
    session: Session,
    command: {
      uploadId: string;
      fileName: string;
      layer: "user" | "project";
      dryRun: boolean;
      force: boolean;
    },
  ): Promise<InstallOutcome> {
    const upload = this.upload;
    if (!upload || upload.id !== command.uploadId || upload.sessionId !== session.id)
      throw new PlaygroundError(
        "invalid_arguments",
        `install_skill: no upload "${command.uploadId}" on this connection`,
      );
    const missing = upload.chunks.findIndex((chunk) => chunk === undefined);
    if (missing !== -1)
      throw new PlaygroundError(
        "invalid_arguments",
        `install_skill: chunk ${missing} of ${upload.count} of the upload has not arrived`,
      );
    const data = Buffer.concat(upload.chunks as Buffer[]);
    const outcome = await installSkill(
      { kind: "bytes", name: command.fileName, data },
      { layer: command.layer, layers: session.skillLayers },
      { dryRun: command.dryRun, force: command.force },
    );
    if (!command.dryRun) {
      this.drop();
      if (outcome.ok) await session.reloadCatalog("manual");
    }
    return outcome;
  }

  dispose(): void {
    this.drop();
  }
}
