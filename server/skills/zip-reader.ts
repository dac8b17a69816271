// Reads a skill .zip with yauzl (streaming, entry by entry) into an InstallTree, in memory. Nothing is
// written here. Names are decoded from their raw bytes and checked by install-tree.ts (yauzl's own
// name handling would turn backslashes into separators); symlinks and device files are refused from
// the Unix mode bits; inflated bytes are counted as they stream, so a zip bomb stops at the limit.
import yauzl, { type Entry, type ZipFile } from "yauzl";
import {
  InstallRefused,
  InstallTreeBuilder,
  MAX_INSTALL_BYTES,
  MAX_INSTALL_FILES,
  checkEntryPath,
  type InstallTree,
} from "./install-tree.ts";

/** Folders count too: an archive of a million empty folders is no skill either. */
const MAX_ENTRIES = MAX_INSTALL_FILES * 4;

const UNIX_HOST = 3;
const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;

interface EntryKind {
  kind: "file" | "folder";
  executable: boolean;
}

/** File type from the Unix mode in the external attributes (only trusted when made on Unix). */
function entryKind(entry: Entry, name: string): EntryKind {
  const madeOnUnix = entry.versionMadeBy >>> 8 === UNIX_HOST;
  const mode = madeOnUnix ? entry.externalFileAttributes >>> 16 : 0;
  const type = mode & S_IFMT;
  if (type === S_IFLNK) throw new InstallRefused(name, "symbolic link (links are not installed)");
  if (type !== 0 && type !== S_IFREG && type !== S_IFDIR)
    throw new InstallRefused(name, "device file, FIFO or socket (only files and folders are installed)");
  const isFolder = type === S_IFDIR || name.endsWith("/");
  if (isFolder && type === S_IFREG) throw new InstallRefused(name, "a file whose name ends in '/'");
  return { kind: isFolder ? "folder" : "file", executable: (mode & 0o111) !== 0 };
}

function entryName(entry: Entry): string {
  // decodeStrings is off, so fileName is the raw bytes; decode as yauzl would (UTF-8 flag, Info-ZIP
  // Unicode path field, else CP437) but strictly: a backslash stays a backslash and is refused.
  const raw = entry.fileName as unknown as Buffer;
  return yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, raw, entry.extraFields, true);
}

function openZip(buffer: Buffer): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(
      buffer,
      { lazyEntries: true, decodeStrings: false, validateEntrySizes: true, autoClose: false },
      (error, zipfile) => (error ? reject(error) : resolve(zipfile)),
    );
  });
}

function readEntryData(
  zipfile: ZipFile,
  entry: Entry,
  name: string,
  builder: InstallTreeBuilder,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    zipfile.openReadStream(entry, (openError, stream) => {
      if (openError) return reject(new InstallRefused(name, `cannot read: ${openError.message}`));
      const chunks: Buffer[] = [];
      let failed = false;
      stream.on("data", (chunk: Buffer) => {
        if (failed) return;
        try {
          builder.countBytes(name, chunk.length);
          chunks.push(chunk);
        } catch (error) {
          failed = true;
          stream.destroy();
          reject(error);
        }
      });
      stream.on("error", (error: Error) => {
        if (failed) return;
        failed = true;
        // yauzl checks the inflated size against the header ("too many bytes in the stream").
        reject(new InstallRefused(name, `cannot inflate: ${error.message}`));
      });
      stream.on("end", () => {
        if (!failed) resolve(Buffer.concat(chunks));
      });
    });
  });
}

function nextEntry(zipfile: ZipFile): Promise<Entry | null> {
  return new Promise((resolve, reject) => {
    const onEntry = (entry: Entry) => {
      cleanup();
      resolve(entry);
    };
    const onEnd = () => {
      cleanup();
      resolve(null);
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const cleanup = () => {
      zipfile.off("entry", onEntry);
      zipfile.off("end", onEnd);
      zipfile.off("error", onError);
    };
    zipfile.on("entry", onEntry);
    zipfile.on("end", onEnd);
    zipfile.on("error", onError);
    zipfile.readEntry();
  });
}

/**
 * Reads and checks every entry of a zip held in memory. `sourceName` names the archive in messages.
 * Throws InstallRefused (entry + rule) on the first broken rule.
 */
export async function readZipArchive(buffer: Buffer, sourceName: string): Promise<InstallTree> {
  let zipfile: ZipFile;
  try {
    zipfile = await openZip(buffer);
  } catch (error) {
    throw new InstallRefused(sourceName, `not a readable zip archive: ${(error as Error).message}`);
  }
  const builder = new InstallTreeBuilder();
  let declaredBytes = 0;
  try {
    for (let count = 0; ; count++) {
      let entry: Entry | null;
      try {
        entry = await nextEntry(zipfile);
      } catch (error) {
        throw new InstallRefused(sourceName, `damaged zip archive: ${(error as Error).message}`);
      }
      if (entry === null) break;
      const name = entryName(entry);
      if (count >= MAX_ENTRIES) throw new InstallRefused(name, `more than ${MAX_ENTRIES} entries`);
      const segments = checkEntryPath(name);
      if (InstallTreeBuilder.isIgnored(segments)) continue;
      const kind = entryKind(entry, name);
      if (kind.kind === "folder") {
        builder.addFolder(name, segments);
        continue;
      }
      if (entry.isEncrypted()) throw new InstallRefused(name, "encrypted entry");
      if (!entry.canDecodeFileData())
        throw new InstallRefused(name, `unsupported compression method ${entry.compressionMethod}`);
      const key = builder.beginFile(name, segments);
      // The headers may lie (the inflated count below is what holds), but an honest header over the
      // limit is refused before inflating anything.
      declaredBytes += entry.uncompressedSize;
      if (declaredBytes > MAX_INSTALL_BYTES)
        throw new InstallRefused(
          name,
          `more than ${MAX_INSTALL_BYTES / (1024 * 1024)} MiB uncompressed (declared by the archive's headers)`,
        );
      builder.endFile(key, await readEntryData(zipfile, entry, name, builder), kind.executable);
    }
  } finally {
    zipfile.close();
  }
  return builder.finish(sourceName);
}
