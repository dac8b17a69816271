// Reads a skill file with a size limit in as few file-system calls as a plain readFile (open, fstat, read,
// close): the size check uses the open handle's fstat instead of a separate stat of the path, and a
// missing file surfaces as the open's ENOENT, so callers need no exists-check first.
import { close, constants, fstat, open, read } from "node:fs";

/** A SKILL.md larger than this is refused: a skill body is meant to be read by a model in one go. */
export const MAX_SKILL_FILE_BYTES = 1024 * 1024;

function closeThen(descriptor: number, settle: () => void, reject: (error: unknown) => void): void {
  close(descriptor, (closeError) => (closeError ? reject(closeError) : settle()));
}

/**
 * The file's text (UTF-8). Rejects with the file system's own error (`code` set, e.g. ENOENT, EACCES,
 * EISDIR) or with "file is N bytes; the limit is M" when it is larger than `limit`.
 * Callback API on purpose: one promise per file instead of one per call keeps a 1,000-skill scan cheap.
 */
export function readBounded(filePath: string, limit: number = MAX_SKILL_FILE_BYTES): Promise<string> {
  return new Promise((resolve, reject) => {
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever (and hold a
    // libuv thread); for regular files and folders it changes nothing.
    open(filePath, constants.O_RDONLY | constants.O_NONBLOCK, (openError, descriptor) => {
      if (openError) return reject(openError);
      const fail = (error: unknown) => closeThen(descriptor, () => reject(error), reject);
      fstat(descriptor, (statError, info) => {
        if (statError) return fail(statError);
        // Folders go on to the read's EISDIR, which callers know; a FIFO, socket or device is no skill file.
        if (!info.isFile() && !info.isDirectory()) {
          return fail(new Error("not a regular file (a FIFO, socket or device)"));
        }
        if (info.size > limit) return fail(new Error(`file is ${info.size} bytes; the limit is ${limit}`));
        // Size 0 may be a real empty file or a file that does not report its size; read in chunks until
        // end of file either way, up to the limit (one read suffices for an ordinary file).
        const chunks: Buffer[] = [];
        let total = 0;
        const readMore = () => {
          const buffer = Buffer.allocUnsafe(info.size > total ? info.size - total : 16 * 1024);
          read(descriptor, buffer, 0, buffer.length, null, (readError, bytesRead) => {
            if (readError) return fail(readError);
            if (bytesRead > 0) {
              chunks.push(bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead));
              total += bytesRead;
              if (total > limit) return fail(new Error(`file is over ${limit} bytes; the limit is ${limit}`));
            }
            // Known size reached (what readFile does too) or end of file: done.
            if (bytesRead === 0 || (info.size > 0 && total >= info.size)) {
              const text = (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, total)).toString("utf8");
              return closeThen(descriptor, () => resolve(text), reject);
            }
            readMore();
          });
        };
        readMore();
      });
    });
  });
}
